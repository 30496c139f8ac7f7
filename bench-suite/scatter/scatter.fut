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
