-- i32 arithmetic wraps around.
-- ==
-- input { 2147483647 100000 } output { -2147483648 1410065408 -2147483648 }

def main (x: i32) (y: i32) : (i32, i32, i32) = (x + 1, y * y, -(x + 1))
