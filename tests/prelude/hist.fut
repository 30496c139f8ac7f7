-- hist with several operators; out-of-range bins are ignored.
-- ==
-- entry: count
-- input { 3i64 [0i64, 1i64, 3i64, 2i64, 1i64, 0i64, 0i64, 1i64] } output { [3, 3, 1] }
-- input { 3i64 [-1i64, 5i64, 3i64] } output { [0, 0, 0] }
-- input { 0i64 [0i64, 1i64] } output { empty([0]i32) }
-- input { 2i64 empty([0]i64) } output { [0, 0] }

-- ==
-- entry: maxes
-- input { 2i64 [0i64, 1i64, 0i64, 1i64, 7i64] [5.0, -1.0, 7.5, -3.0, 100.0] }
-- output { [7.5, -1.0] }

-- ==
-- entry: mins_prods
-- input { 3i64 [2i64, 2i64, 0i64, 9i64] [4i32, 3i32, -2i32, 1i32] }
-- output { [-2, 2147483647, 3] [-2, 1, 12] }

entry count [n] (k: i64) (is: [n]i64): []i32 = hist (+) 0 k is (replicate n 1)

entry maxes [n] (k: i64) (is: [n]i64) (vs: [n]f64): []f64 = hist f64.max (-f64.inf) k is vs

entry mins_prods [n] (k: i64) (is: [n]i64) (vs: [n]i32): ([]i32, []i32) =
  (hist i32.min i32.highest k is vs, hist (*) 1 k is vs)
