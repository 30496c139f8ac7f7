-- iota and indices.
-- ==
-- input { 5i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 1i64 } output { [0i64] }
-- input { 0i64 } output { empty([0]i64) }
-- input { -1i64 } error: Invalid range

-- ==
-- entry: idx
-- input { [true, false, true] } output { [0i64, 1i64, 2i64] }
-- input { empty([0]bool) } output { empty([0]i64) }

def main (n: i64): []i64 = iota n

entry idx (xs: []bool): []i64 = indices xs
