-- Top-level definitions without parameters are constants.
-- ==
-- input { 1 } output { 43 }

def answer : i32 = 42
def also = answer

def main (x: i32) = also + x
