-- A size parameter used in the result type.
-- ==
-- input { [1, 2, 3] } output { [[1, 2, 3], [1, 2, 3]] }

def twice [n] (xs: [n]i32) : [2][n]i32 = [xs, xs]

def main (xs: []i32) : [][]i32 = twice xs
