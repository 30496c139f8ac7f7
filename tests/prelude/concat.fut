-- ++ and concat.
-- ==
-- input { [1, 2] [3] } output { [1, 2, 3] [3, 1, 2] }
-- input { empty([0]i32) [3] } output { [3] [3] }
-- input { empty([0]i32) empty([0]i32) } output { empty([0]i32) empty([0]i32) }

-- ==
-- entry: rows
-- input { [[1, 2]] [[3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] }

def main (xs: []i32) (ys: []i32): ([]i32, []i32) = (xs ++ ys, concat ys xs)

entry rows [m] (xss: [][m]i32) (yss: [][m]i32): [][m]i32 = xss ++ yss
