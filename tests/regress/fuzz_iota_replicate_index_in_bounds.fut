-- The in-bounds counterpart of fuzz_iota_replicate_index_bounds.fut: indices
-- of `iota n` and `replicate n x` that a `for i < n` loop or a map over
-- `iota n` keeps in bounds, which the simplifier rewrites away.
-- ==
-- input { 4i64 3i32 } output { 6i64 [3i32, 4i32, 5i32, 6i32] 12i32 }
-- input { 0i64 3i32 } output { 0i64 empty([0]i32) 0i32 }

entry main (n: i64) (x: i32) : (i64, []i32, i32) =
  let s = loop s = 0 for i < n do s + (iota n)[i]
  let ys = map (\i -> (replicate n x)[i] + i32.i64 (iota n)[i]) (iota n)
  let t = loop t = 0 for i < n do t + (replicate n x)[i]
  in (s, ys, t)
