-- Parallel scatter, repeated indices: the indices and values are computed
-- in parallel, then the writes are applied in iteration order, so the last
-- write to an index wins on every backend and for any number of threads
-- (Futhark leaves the result unspecified then; this compiler picks the
-- last). An empty input leaves the destination as it was.
-- ==
-- entry: last_wins
-- input { 10i64 3i64 } output { [28i64, 22i64, 25i64] }
-- input { 0i64 3i64 } output { [-1i64, -1i64, -1i64] }
-- input { 2i64 4i64 } output { [1i64, -1i64, -1i64, 4i64] }

entry last_wins (n: i64) (k: i64) : []i64 =
  let is = map (\i -> (i * 7) % k) (iota n)
  let vs = map (\i -> i * 3 + 1) (iota n)
  in scatter (replicate k (-1)) is vs

-- ==
-- entry: last_wins_large
-- input { 3000000i64 1000i64 } output { 8998499500i64 8997001i64 8999998i64 }
-- input { 3000000i64 3000000i64 } output { 13499998500000i64 1i64 8999998i64 }

entry last_wins_large (n: i64) (k: i64) : (i64, i64, i64) =
  let is = map (\i -> i % k) (iota n)
  let vs = map (\i -> i * 3 + 1) (iota n)
  let r = scatter (replicate k 0) is vs
  in (i64.sum r, r[0], r[k - 1])
