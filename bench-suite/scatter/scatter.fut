-- Parallel scatter: 2,000,000 writes into k destinations, the map computing
-- each index and value (`cheap`: an integer expression; `heavy`: a sine and
-- a cosine). Repeated indices write the same value. Run with
-- `fut bench --backend=multicore bench-suite/scatter`, and the executable's
-- `--num-threads` to compare thread counts.
-- ==
-- entry: cheap heavy
-- input { 2000000i64 1000i64 }
-- input { 2000000i64 1000000i64 }

entry cheap (n: i64) (k: i64) : i64 =
  let r = scatter (replicate k 0) (map (\i -> (i * 7919) % k) (iota n))
                  (map (\i -> (i * 7919) % k + 1) (iota n))
  in r[k - 1]

entry heavy (n: i64) (k: i64) : f64 =
  let r = scatter (replicate k 0) (map (\i -> (i * 7919) % k) (iota n))
                  (map (\i -> let x = f64.i64 ((i * 7919) % k) in f64.sin x * f64.cos x) (iota n))
  in r[k - 1]

-- Rows: `n` iterations each writing a row of `m` elements into `k`
-- destination rows (`rows`: the row computed from its index, so repeated
-- indices write equal rows; `rows_passed`: rows of the input written to a
-- permutation of the destination's rows, the map computing only the
-- index; short rows and long ones).
-- ==
-- entry: rows
-- input { 200000i64 1000i64 32i64 }
-- input { 200000i64 200000i64 32i64 }

entry rows (n: i64) (k: i64) (m: i64) : f64 =
  let r = scatter (replicate k (replicate m 0)) (map (\i -> (i * 7919) % k) (iota n))
                  (map (\i -> let j = (i * 7919) % k in map (\c -> f64.i64 (j + c)) (iota m)) (iota n))
  in r[k - 1, m - 1]

-- ==
-- entry: rows_passed
-- random input { [200000][32]f64 }
-- random input { [2000][1000]f64 }

entry rows_passed [n][m] (xss: [n][m]f64) : f64 =
  let r = scatter (replicate n (replicate m 0)) (map (\i -> (i * 7919) % n) (iota n)) xss
  in r[n - 1, m - 1]
