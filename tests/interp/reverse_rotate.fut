-- reverse and rotate.
-- ==
-- input { [1, 2, 3, 4, 5] } output { [5, 4, 3, 2, 1] [3, 4, 5, 1, 2] [5, 1, 2, 3, 4] }

def main (xs: []i32) : ([]i32, []i32, []i32) = (reverse xs, rotate 2 xs, rotate (-1) xs)
