-- Intermediate arrays freed after their last use, before the next large
-- array is allocated: per-element blocks flattened and concatenated with
-- a second array, then indices computed from an input (the shape of BA's
-- Jacobian).
-- ==
-- input { [1.0, 2.0, 3.0] [2i32, 0i32, 1i32] }
-- output { [1.0, 2.0, 2.0, 4.0, 3.0, 6.0, 2.0, 4.0, 6.0] [4i64, 5i64, 0i64, 1i64, 2i64, 3i64] 6.0 }

entry main [p] (w: [p]f64) (o: [p]i32) : ([]f64, []i64, f64) =
  let blocks = map (\x -> [x, 2 * x]) w
  let doubled = map (* 2) w
  let vals = flatten blocks ++ doubled
  let s = f64.sum w
  let cols = tabulate (2 * p) (\k -> 2 * i64.i32 o[k / 2] + k % 2)
  in (vals, cols, s)
