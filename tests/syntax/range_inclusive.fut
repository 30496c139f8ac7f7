-- `a...b` includes its end point.
-- ==
-- input { 2 6 } output { [2, 3, 4, 5, 6] }
-- input { 3 3 } output { [3] }

def main (a: i32) (b: i32) : []i32 = a...b
