-- Parallel scatter, out-of-bounds indices: negative indices and indices
-- past the end are ignored, the others applied;
-- two destinations written by one scatter each get their own indices.
-- ==
-- entry: bounds
-- input { 12i64 5i64 } output { [0.0f64, 9.0f64, 13.0f64, 17.0f64, 21.0f64] }
-- input { 0i64 5i64 } output { [0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64] }

entry bounds (n: i64) (k: i64) : []f64 =
  let is = map (\i -> i - 3) (iota n)
  let vs = map (\i -> f64.i64 (i * 2 + 1)) (iota n)
  let is = map (\j -> if j < 0 then j else if j % 2 == 0 then k + j else j / 2 + 1) is
  in scatter (replicate k 0) is vs

-- ==
-- entry: bounds_large
-- input { 2000000i64 1000i64 } output { 999000i64 -999i64 2i64 }

-- Repeated in-bounds indices write the same value (the only repetition
-- Futhark allows).
entry bounds_large (n: i64) (k: i64) : (i64, i64, i64) =
  let is = map (\i -> if i % 3 == 0 then -i - 1 else if i % 3 == 1 then k + i else i % k) (iota n)
  let vs = map (\j -> j * 2) is
  let (r, s) = unzip (scatter (zip (replicate k 0) (replicate k 0)) is (zip vs (map (\v -> -v) vs)))
  in (i64.sum r, i64.sum s / 1000, r[k - 1] - r[k - 2])
