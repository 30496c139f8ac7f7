-- Gradient of a least-squares loss with respect to (weights, bias), computed
-- with vjp over a tuple of an array and a scalar, checked against the
-- analytic gradient and used for a few steps of gradient descent.
-- ==
-- entry: grad
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [1.0, 2.0, 3.0] [0.5, -0.5] 1.0 }
-- output { [-11.666666666666666, -14.666666666666666] -3.0 [-11.666666666666666, -14.666666666666666] -3.0 }

-- ==
-- entry: loss_after
-- input { [[1.0], [2.0], [3.0]] [2.0, 4.0, 6.0] 0 } output { 18.666666666666668 }
-- input { [[1.0], [2.0], [3.0]] [2.0, 4.0, 6.0] 1 } output { 3.762962962962964 }

def predict [n][d] (xs: [n][d]f64) (w: [d]f64) (b: f64) : [n]f64 =
  map (\x -> f64.sum (map2 (*) x w) + b) xs

-- | Mean squared error.
def loss [n][d] (xs: [n][d]f64) (ys: [n]f64) ((w, b): ([d]f64, f64)) : f64 =
  let r = map2 (-) (predict xs w b) ys
  in f64.sum (map (\e -> e * e) r) / f64.i64 n

def analytic [n][d] (xs: [n][d]f64) (ys: [n]f64) (w: [d]f64) (b: f64) : ([d]f64, f64) =
  let r = map2 (-) (predict xs w b) ys
  let k = 2 / f64.i64 n
  let gw = map (\j -> k * f64.sum (map2 (\e x -> e * x[j]) r xs)) (iota d)
  let gb = k * f64.sum r
  in (gw, gb)

entry grad [n][d] (xs: [n][d]f64) (ys: [n]f64) (w: [d]f64) (b: f64) : ([d]f64, f64, [d]f64, f64) =
  let (gw, gb) = vjp (loss xs ys) (w, b) 1
  let (aw, ab) = analytic xs ys w b
  in (gw, gb, aw, ab)

entry loss_after [n][d] (xs: [n][d]f64) (ys: [n]f64) (steps: i32) : f64 =
  let lr = 0.05
  let (w, b) =
    loop (w, b) = (replicate d 0, 0) for _i < steps do
      let (gw, gb) = vjp (loss xs ys) (w, b) 1
      in (map2 (\wi gi -> wi - lr * gi) w gw, b - lr * gb)
  in loss xs ys (w, b)
