-- A failed assertion reports the text of its condition.
-- ==
-- input { 5 } output { 5 }
-- input { -5 } error: Assertion is false: x >= 0

def main (x: i32) = assert (x >= 0) x
