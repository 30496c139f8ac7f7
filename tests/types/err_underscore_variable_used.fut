-- A variable whose name begins with an underscore may not be used.
-- ==
-- error: T015

def main (_count: i32) (x: i32) : i32 = x + _count
