-- Segmented operations at sizes around the GPU block sizes (0, 1, 63, 64, 65, a few
-- blocks, many blocks): reductions with commutative and non-commutative operators
-- and tuple operators, scans, segmented reductions, histograms whose updates all hit
-- one bucket, and float histograms (compare-and-swap adds on devices without float
-- atomics). Each parallel result is compared with a sequential loop computing the
-- same thing, or with its closed form.
-- ==
-- entry: sums
-- input { 0i64 } output { 0i64 0i64 true }
-- input { 1i64 } output { 0i64 0i64 true }
-- input { 63i64 } output { 1953i64 1953i64 true }
-- input { 64i64 } output { 2016i64 2016i64 true }
-- input { 65i64 } output { 2080i64 2080i64 true }
-- input { 1000i64 } output { 499500i64 499500i64 true }
-- input { 100000i64 } output { 4999950000i64 4999950000i64 true }

-- | The sum of `iota n` as a reduction and as the last element of a scan, and
-- whether a non-commutative reduction (composing affine maps `x -> a*x + b`, a
-- tuple operator) agrees with the sequential composition.
entry sums (n: i64) : (i64, i64, bool) =
  let xs = iota n
  let s = reduce (+) 0 xs
  let sc = scan (+) 0 xs
  let last = if n == 0 then 0 else sc[n - 1]
  let fs = map (\i -> (i % 3 - 1, i % 7)) xs
  let compose (a, b) (c, d) = (a * c, b * c + d)
  let par = reduce compose (1, 0) fs
  let seq = loop acc = (1, 0) for f in fs do compose acc f
  in (s, last, par == seq)

-- ==
-- entry: scans
-- input { 0i64 } output { true }
-- input { 1i64 } output { true }
-- input { 64i64 } output { true }
-- input { 65i64 } output { true }
-- input { 5000i64 } output { true }

-- | An inclusive scan with a non-commutative tuple operator against the sequential
-- prefixes.
entry scans (n: i64) : bool =
  let fs = map (\i -> (i % 5 - 2, i % 11)) (iota n)
  let compose (a, b) (c, d) = (a * c, b * c + d)
  let par = scan compose (1, 0) fs
  let (seq, _) =
    loop (out, acc) = (replicate n (0, 0), (1, 0)) for i < n do
      let acc' = compose acc fs[i]
      in (out with [i] = acc', acc')
  in and (map2 (==) par seq)

-- ==
-- entry: segmented
-- input { 0i64 } output { 0i64 true }
-- input { 1i64 } output { 0i64 true }
-- input { 65i64 } output { 43680i64 true }
-- input { 300i64 } output { 4455100i64 true }

-- | Segments of every length from 0 to m-1 (the first empty): the sum of the
-- segments' sums, and whether each segment's sum is its closed form.
entry segmented (m: i64) : (i64, bool) =
  let sums = map (\i -> reduce (+) 0 (iota i)) (iota m)
  in (reduce (+) 0 sums, and (map2 (\i s -> s == i * (i - 1) / 2) (iota m) sums))

-- ==
-- entry: one_bucket
-- input { 0i64 } output { [0i32, 0i32, 0i32] [0.0f32, 0.0f32] [0.0f64, 0.0f64] }
-- input { 1i64 } output { [0i32, 1i32, 0i32] [1.0f32, 0.0f32] [0.5f64, 0.0f64] }
-- input { 65i64 } output { [0i32, 65i32, 0i32] [65.0f32, 0.0f32] [32.5f64, 0.0f64] }
-- input { 100000i64 } output { [0i32, 100000i32, 0i32] [100000.0f32, 0.0f32] [50000.0f64, 0.0f64] }

-- | Histograms whose updates all hit one bucket: integer adds, and float adds (exact
-- here, whatever the order).
entry one_bucket (n: i64) : ([3]i32, [2]f32, [2]f64) =
  let is = replicate n 1i64
  let h = reduce_by_index (replicate 3 0) (+) 0 is (replicate n 1)
  let f = reduce_by_index (replicate 2 0) (+) 0 (replicate n 0) (replicate n 1f32)
  let d = reduce_by_index (replicate 2 0) (+) 0 (replicate n 0) (replicate n 0.5f64)
  in (h, f, d)

-- ==
-- entry: rows
-- input { 0i64 200i64 } output { true }
-- input { 1i64 0i64 } output { true }
-- input { 3i64 1i64 } output { true }
-- input { 2i64 127i64 } output { true }
-- input { 3i64 128i64 } output { true }
-- input { 2i64 129i64 } output { true }
-- input { 5i64 1000i64 } output { true }
-- input { 2000i64 3i64 } output { true }

-- | Regular segments of every length around the group size: on a GPU, rows of at
-- least 128 elements are reduced by a group of threads each, shorter ones by one
-- thread. A commutative sum and a non-commutative tuple operator (composing affine
-- maps) against sequential loops.
entry rows (n: i64) (m: i64) : bool =
  let xss = tabulate_2d n m (\i j -> (i * 7919 + j * 31) % 1009 - 500)
  let sums = map (\row -> reduce (+) 0 row) xss
  let compose (a, b) (c, d) = (a * c, b * c + d)
  let fss = map (map (\x -> (x % 3 - 1, x % 7))) xss
  let comps = map (\fs -> reduce compose (1, 0) fs) fss
  let seq_sums = map (\row -> loop s = 0 for x in row do s + x) xss
  let seq_comps = map (\fs -> loop acc = (1, 0) for f in fs do compose acc f) fss
  in and (map2 (==) sums seq_sums) && and (map2 (==) comps seq_comps)

-- ==
-- entry: many_buckets
-- input { 0i64 10i64 } output { true }
-- input { 1000i64 10i64 } output { true }
-- input { 3000i64 5000i64 } output { true }
-- input { 20000i64 1000i64 } output { true }

-- | Histograms with more buckets than updates per bucket: on a GPU, atomic updates
-- of the destination (native integer additions, compare-and-swap loops for a
-- float maximum) instead of per-chunk copies. Out-of-range buckets are ignored.
entry many_buckets (n: i64) (m: i64) : bool =
  let is = map (\i -> (i * 7919) % (m + 10) - 5) (iota n)
  let vs = map (\i -> f64.i64 ((i * 31) % 97)) (iota n)
  let counts = reduce_by_index (replicate m 0i32) (+) 0 is (replicate n 1)
  let maxes = reduce_by_index (replicate m f64.lowest) f64.max f64.lowest is vs
  let (seq_counts, seq_maxes) =
    loop (c, x) = (replicate m 0i32, replicate m f64.lowest) for i < n do
      let b = is[i]
      in if b >= 0 && b < m then (c with [b] = c[b] + 1, x with [b] = f64.max x[b] vs[i]) else (c, x)
  in and (map2 (==) counts seq_counts) && and (map2 (==) maxes seq_maxes)
