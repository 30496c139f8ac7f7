-- Histograms large enough to run as segmented histograms on several chunks
-- (partial histograms per chunk, combined with the operator).
-- ==
-- input { 100000i64 } output { 1000i32 1000i32 4999950000i64 -1i64 }

entry main (n: i64) : (i32, i32, i64, i64) =
  let js = map (\i -> i % 100) (iota n)
  let counts = reduce_by_index (replicate 100 0i32) (+) 0 js (replicate n 1)
  let sums = reduce_by_index (replicate 3 0i64) (+) 0 (map (\j -> j % 3) js) (iota n)
  let mins = reduce_by_index (replicate 5 0i64) i64.min i64.highest (map (\i -> i % 7) (iota n)) (map (\i -> -(i % 2)) (iota n))
  in (i32.minimum counts, i32.maximum counts, i64.sum sums, i64.minimum mins)
