-- Reductions whose operands are arrays, as reverse-mode AD makes them (the adjoint of
-- an array every iteration reads is the sum of the iterations' adjoint arrays): they
-- run in parallel as chunks keeping partial arrays, combined in chunk order. Each
-- parallel result is compared with a sequential loop computing the same thing, at
-- sizes around the chunk counts and the GPU block sizes, with empty and one-element
-- rows, a non-commutative operator (2x2 matrix products modulo a prime) and a tuple of
-- an array and a scalar.
-- ==
-- entry: vector_sums
-- input { 0i64 3i64 } output { true }
-- input { 1i64 3i64 } output { true }
-- input { 63i64 4i64 } output { true }
-- input { 64i64 1i64 } output { true }
-- input { 65i64 5i64 } output { true }
-- input { 1000i64 7i64 } output { true }
-- input { 5i64 0i64 } output { true }

entry vector_sums (n: i64) (m: i64) : bool =
  let rows = map (\i -> map (\j -> (i * 7 + j * 3) % 11 - 5) (iota m)) (iota n)
  let par = reduce (map2 (+)) (replicate m 0) rows
  let seq = loop acc = replicate m 0 for r in rows do map2 (+) acc r
  in and (map2 (==) par seq)

-- ==
-- entry: matrix_sums
-- input { 0i64 2i64 3i64 } output { true }
-- input { 65i64 2i64 3i64 } output { true }
-- input { 1000i64 3i64 1i64 } output { true }
-- input { 7i64 0i64 4i64 } output { true }

-- | Rows of two-dimensional arrays summed elementwise (the operator a map of maps).
entry matrix_sums (n: i64) (r: i64) (c: i64) : bool =
  let ms = map (\i -> map (\a -> map (\b -> (i * 5 + a * 3 + b) % 13 - 6) (iota c)) (iota r)) (iota n)
  let par = reduce (map2 (map2 (+))) (replicate r (replicate c 0)) ms
  let seq = loop acc = replicate r (replicate c 0) for m in ms do map2 (map2 (+)) acc m
  in and (map2 (\x y -> and (map2 (==) x y)) par seq)

-- ==
-- entry: matrix_products
-- input { 0i64 } output { true }
-- input { 1i64 } output { true }
-- input { 64i64 } output { true }
-- input { 65i64 } output { true }
-- input { 1000i64 } output { true }

def mul (a: [4]i64) (b: [4]i64) : [4]i64 =
  let p = 1000003
  in [ (a[0] * b[0] + a[1] * b[2]) % p, (a[0] * b[1] + a[1] * b[3]) % p
     , (a[2] * b[0] + a[3] * b[2]) % p, (a[2] * b[1] + a[3] * b[3]) % p ]

entry matrix_products (n: i64) : bool =
  let ms = map (\i -> [i % 3, 1, 1, i % 5]) (iota n)
  let par = reduce mul [1, 0, 0, 1] ms
  let seq = loop acc = [1, 0, 0, 1] for m in ms do mul acc m
  in and (map2 (==) par seq)

-- ==
-- entry: with_scalar
-- input { 0i64 2i64 } output { true }
-- input { 65i64 2i64 } output { true }
-- input { 1000i64 3i64 } output { true }

entry with_scalar (n: i64) (m: i64) : bool =
  let rows = map (\i -> (map (\j -> i * j) (iota m), i)) (iota n)
  let op (a, s) (b, t) = (map2 (+) a b, s + t)
  let (pa, ps) = reduce op (replicate m 0, 0) rows
  let (sa, ss) = loop (a, s) = (replicate m 0, 0) for (r, i) in rows do op (a, s) (r, i)
  in ps == ss && and (map2 (==) pa sa)

-- ==
-- entry: gradient
-- input { 0i64 3i64 } output { true }
-- input { 1i64 3i64 } output { true }
-- input { 100i64 4i64 } output { true }
-- input { 1000i64 10i64 } output { true }

-- | The gradient of `sum (map (\x -> sum (map (\a -> a * x * x) as)) xs)` with respect
-- to `as`: every component is the sum of the squares of `xs` (small integers, so
-- every order of summation gives the same floats).
entry gradient (n: i64) (k: i64) : bool =
  let xs = map (\i -> f64.i64 (i % 5)) (iota n)
  let as = map f64.i64 (iota k)
  let g = vjp (\as -> f64.sum (map (\x -> f64.sum (map (\a -> a * x * x) as)) xs)) as 1
  let want = f64.sum (map (\x -> x * x) xs)
  in all (== want) g
