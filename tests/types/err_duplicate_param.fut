-- Two parameters with the same name.
-- ==
-- error: T010

def f (x: i32) (x: i32) = x
def main = f 1 2
