-- replicate, also of arrays.
-- ==
-- input { 3i64 7 } output { [7, 7, 7] }
-- input { 0i64 7 } output { empty([0]i32) }
-- input { -2i64 7 } error: Invalid range

-- ==
-- entry: rows
-- input { 2i64 [1, 2] } output { [[1, 2], [1, 2]] }
-- input { 0i64 [1, 2] } output { empty([0][2]i32) }

def main (n: i64) (x: i32): []i32 = replicate n x

entry rows [m] (n: i64) (x: [m]i32): [][m]i32 = replicate n x
