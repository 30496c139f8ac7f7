-- Parallel scatter, repeated indices: Futhark allows an index to repeat
-- only when every write to it has the same value, and then any order of
-- the writes gives the same result, on every backend and for any number of
-- threads. Here the value written depends only on the index. An empty
-- input leaves the destination as it was.
-- ==
-- entry: repeated
-- input { 10i64 3i64 } output { [1i64, 4i64, 7i64] }
-- input { 0i64 3i64 } output { [-1i64, -1i64, -1i64] }
-- input { 2i64 4i64 } output { [1i64, -1i64, -1i64, 10i64] }

entry repeated (n: i64) (k: i64) : []i64 =
  let is = map (\i -> (i * 7) % k) (iota n)
  let vs = map (\j -> j * 3 + 1) is
  in scatter (replicate k (-1)) is vs

-- ==
-- entry: repeated_large
-- input { 3000000i64 1000i64 } output { 1499500i64 1i64 2998i64 }
-- input { 3000000i64 3000000i64 } output { 13499998500000i64 1i64 8999998i64 }

entry repeated_large (n: i64) (k: i64) : (i64, i64, i64) =
  let is = map (\i -> (i * 7919) % k) (iota n)
  let vs = map (\j -> j * 3 + 1) is
  let r = scatter (replicate k 0) is vs
  in (i64.sum r, r[0], r[k - 1])
