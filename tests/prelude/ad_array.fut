-- AD of functions on arrays: gradients of reductions, maps, dot products.
-- ==
-- entry: sumsq
-- input { [1.0, 2.0, 3.0] } output { [2.0, 4.0, 6.0] 14.0 }
-- input { empty([0]f64) } output { empty([0]f64) 0.0 }

-- ==
-- entry: dot
-- input { [1.0, 2.0] [3.0, 4.0] } output { [3.0, 4.0] [1.0, 2.0] 15.0 }

-- ==
-- entry: map_jvp
-- input { [1.0, 2.0, 3.0] } output { [2.0, 2.0, 2.0] [0.5, -1.0, 1.5] }

-- ==
-- entry: product
-- input { [2.0, 3.0, 4.0] } output { [12.0, 8.0, 6.0] }

-- ==
-- entry: scan_sum
-- input { [5.0, 1.0, 2.0] } output { [3.0, 2.0, 1.0] }

-- ==
-- entry: hist_grad
-- input { [1.0, 2.0, 3.0] } output { [10.0, 20.0, 10.0] }

-- ==
-- entry: loop_pow
-- input { 1.5 } output { 136.6875f64 }

entry sumsq (xs: []f64): ([]f64, f64) =
  let f = \ys -> f64.sum (map (\y -> y * y) ys)
  in (vjp f xs 1.0, f xs)

entry dot [n] (a: [n]f64) (b: [n]f64): ([n]f64, [n]f64, f64) =
  let f (u: [n]f64, v: [n]f64) = f64.sum (map2 (*) u v)
  let (ga, gb) = vjp f (a, b) 1.0
  in (ga, gb, jvp f (a, b) (b, a) / 2.0)

entry map_jvp [n] (xs: [n]f64): ([n]f64, [n]f64) =
  (jvp (map (* 2.0)) xs (replicate n 1.0),
   vjp (map (\x -> x * x)) xs (map (\i -> if i % 2 == 0 then 0.25 else -0.25) (iota n)))

entry product (xs: []f64): []f64 = vjp f64.product xs 1.0

entry scan_sum (xs: []f64): []f64 = vjp (\ys -> f64.sum (scan (+) 0.0 ys)) xs 1.0

entry hist_grad (xs: [3]f64): [3]f64 =
  vjp (\ys -> hist (+) 0.0 2 [0, 1, 0] ys) xs [10.0, 20.0]

entry loop_pow (x: f64): f64 = vjp (\y -> loop z = y for i < 3 do z * z) x 1.0
