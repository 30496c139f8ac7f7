-- tail and init.
-- ==
-- input { [1, 2, 3] } output { [2, 3] [1, 2] }
-- input { [1] } output { empty([0]i32) empty([0]i32) }
-- input { empty([0]i32) } error: Invalid slice|out of bounds|Size mismatch

def main (xs: []i32): ([]i32, []i32) = (tail xs, init xs)
