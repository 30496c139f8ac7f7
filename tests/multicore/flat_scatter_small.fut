-- Scatters whose estimated work is small run as the sequential loop,
-- larger ones in parallel chunks whose writes are applied in order: both
-- give the same results, out-of-bounds indices ignored, on either side of
-- the threshold (about a million units of work: iterations times the
-- statements of the map).
-- ==
-- entry: scatter_sizes
-- input { 10i64 7i64 } output { 379i64 2i64 }
-- input { 1000i64 97i64 } output { 1502304i64 0i64 }
-- input { 20000i64 1009i64 } output { 1710036720i64 0i64 }
-- input { 400000i64 1009i64 } output { 1710036720i64 0i64 }
-- input { 0i64 5i64 } output { -10i64 5i64 }

entry scatter_sizes (n: i64) (k: i64) : (i64, i64) =
  let is = map (\i -> if i % 13 == 5 then -3 else if i % 13 == 6 then k + 2 else (i * 31) % k) (iota n)
  let vs = map (\i -> ((i * 31) % k) * 5 + (i * 31) % k % 3) (iota n)
  let r = scatter (replicate k (-1)) is vs
  in (i64.sum (map2 (*) r (iota k)), i64.sum (map (\x -> if x < 0 then 1 else 0) r))
