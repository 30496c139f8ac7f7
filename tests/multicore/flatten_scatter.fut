-- Parallel scatter: indices and values computed in parallel chunks, then
-- written. Repeated indices write equal values here (Futhark leaves the
-- result unspecified otherwise); out-of-bounds indices (negative or past
-- the end) are ignored. One- and two-dimensional destinations, rows as
-- values.
-- ==
-- entry: scatter_1d
-- input { 200000i64 1000i64 } output { 796796800i64 1i64 0i64 }
-- input { 0i64 10i64 } output { 0i64 0i64 0i64 }

entry scatter_1d (n: i64) (k: i64) : (i64, i64, i64) =
  let is = map (\i -> if i % 10 == 9 then -1 else if i % 10 == 8 then k + i else i % k) (iota n)
  let vs = map (\i -> (i % k) * 3 + 1) (iota n)
  let r = scatter (replicate k 0) is vs
  in (i64.sum (map2 (*) r (iota k)), r[0], r[k - 1])

-- ==
-- entry: scatter_2d_rows
-- input { 100000i64 300i64 } output { 144630500i64 90000i64 }

entry scatter_2d_rows (n: i64) (k: i64) : (i64, i64) =
  let is = map (\i -> i % k) (iota n)
  let js = map (\i -> (i / k) % 4) (iota n)
  let vs = map (\i -> i % k + (i / k) % 4) (iota n)
  let r2 = scatter_2d (replicate k (replicate 4 0)) (zip is js) vs
  let rows = scatter (replicate k [0, 0]) (map (\i -> i % k) (iota n)) (map (\i -> [i % k, 1]) (iota n))
  in (i64.sum (map2 (*) (flatten r2) (iota (k * 4))), i64.sum (map (\r -> r[0] * 2 + r[1]) rows))
