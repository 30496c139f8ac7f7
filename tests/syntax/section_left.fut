-- A left section (x -) supplies the left operand.
-- ==
-- input { [1, 2, 3] } output { [9, 8, 7] [10, 5, 3] }

def main (xs: []i32) : ([]i32, []i32) = (map (10 -) xs, map (30 /) [3, 6, 10])
