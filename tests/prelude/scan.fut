-- Inclusive scans.
-- ==
-- entry: prefix_sums
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] }
-- input { empty([0]i32) } output { empty([0]i32) }
-- input { [5] } output { [5] }

-- ==
-- entry: running_max
-- input { [3, 1, 4, 1, 5, 9, 2, 6] } output { [3, 3, 4, 4, 5, 9, 9, 9] }

-- ==
-- entry: affine
-- input { [2i64, 3i64, 1i64] [1i64, 0i64, 5i64] } output { [2i64, 6i64, 6i64] [1i64, 3i64, 8i64] }

-- ==
-- entry: bool_or
-- input { [false, false, true, false] } output { [false, false, true, true] }

entry prefix_sums (xs: []i32): []i32 = scan (+) 0 xs

entry running_max (xs: []i32): []i32 = scan i32.max i32.lowest xs

-- Composition of affine maps; checks that operand order is kept.
entry affine [n] (as: [n]i64) (bs: [n]i64): ([n]i64, [n]i64) =
  unzip (scan (\(a1, b1) (a2, b2) -> (a1 * a2, a2 * b1 + b2)) (1, 0) (zip as bs))

entry bool_or (xs: []bool): []bool = scan (||) false xs
