-- Per-bucket count, sum, minimum and mean with hist / reduce_by_index,
-- as a user would write for grouping data by key.
-- ==
-- input { 3i64 [0i64, 1i64, 0i64, 2i64, 1i64, 0i64] [4.0, 2.0, 6.0, 10.0, 8.0, 2.0] }
-- output { [3, 2, 1] [12.0, 10.0, 10.0] [2.0, 2.0, 10.0] [4.0, 5.0, 10.0] }
-- input { 2i64 [1i64, 1i64] [1.0, 3.0] }
-- output { [0, 2] [0.0, 4.0] [f64.inf, 1.0] [0.0, 2.0] }

def main [n] (k: i64) (keys: [n]i64) (vals: [n]f64) : ([k]i32, [k]f64, [k]f64, [k]f64) =
  let counts = hist (+) 0 k keys (replicate n 1)
  let sums = hist (+) 0 k keys vals
  let mins = reduce_by_index (replicate k f64.inf) f64.min f64.inf keys vals
  let means = map2 (\s c -> if c == 0 then 0 else s / f64.i32 c) sums counts
  in (counts, sums, mins, means)
