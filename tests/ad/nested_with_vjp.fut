-- Second derivatives through a custom derivative (with_vjp).  Reverse mode
-- uses the hand-written pullback, so differentiating a gradient again
-- differentiates the pullback: for h x = with_vjp cube pb x with
-- cube x = x^3 and pb = \_ dy -> 3 x^2 dy (closing over x), the gradient is
-- 3 x^2 and its derivative 6 x, by jvp of vjp and by vjp of vjp; jvp of jvp
-- differentiates cube itself, also 6 x.  To show which code each nesting
-- differentiates, hk uses the pullback \_ dy -> k x^2 dy, correct only for
-- k = 3: jvp of vjp and vjp of vjp give 2 k x, jvp of jvp still gives 6 x.
-- The same inside a map over the elements of an array, summed.
-- ==
-- entry: second
-- input { 2.0 3.0 } output { [12.0, 12.0, 12.0] }
-- input { -0.5 5.0 } output { [-5.0, -5.0, -3.0] }

-- ==
-- entry: second_map
-- input { [1.0, -2.0, 0.5] } output { [6.0, -12.0, 3.0] [6.0, -12.0, 3.0] }

def hk (k: f64) (x: f64) : f64 =
  with_vjp (\v -> v * v * v) (\_ dy -> k * x * x * dy) x

def d1 (f: f64 -> f64) (x: f64) : f64 = vjp f x 1

entry second (x: f64) (k: f64) : [3]f64 =
  [ jvp (d1 (hk k)) x 1
  , vjp (d1 (hk k)) x 1
  , jvp (\y -> jvp (hk k) y 1) x 1 ]

def total [n] (xs: [n]f64) : f64 = f64.sum (map (hk 3) xs)

entry second_map [n] (xs: [n]f64) : ([n]f64, [n]f64) =
  let g ys = vjp total ys 1
  in (jvp g xs (replicate n 1), vjp g xs (replicate n 1))
