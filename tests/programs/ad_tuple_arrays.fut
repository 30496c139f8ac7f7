-- `jvp`, `vjp` and `vjp2` over functions taking and returning tuples of arrays,
-- with derivatives checked against hand-derived formulas.
-- ==
-- entry: forward
-- input { [0.5, 1.0, -2.0] [2.0, -1.0, 0.25] [1.0, 1.0, 1.0] [0.0, 1.0, 2.0] }
-- output { [2.0, 0.0, -3.75] 0.0017380312113701724 }
-- input { [0.0] [3.0] [1.0] [0.0] }
-- output { [3.0] 1.0 }
-- input { [1.5, 2.5] [0.1, 0.2] [1.0, 1.0] [0.0, 1.0] }
-- output { [0.1, 2.7] -0.33040641387923075 }

-- ==
-- entry: reverse
-- input { [0.5, 1.0, -2.0] [2.0, -1.0, 0.25] [1.0, 2.0, 3.0] 0.5 }
-- output { [2.4387912809451864, -1.7298488470659301, 0.5419265817264288] [2.5, 1.0, -5.75] }
-- input { [0.0] [3.0] [1.0] 0.5 }
-- output { [3.5] [3.0] }
-- input { [1.5, 2.5] [0.1, 0.2] [1.0, 2.0] 0.5 }
-- output { [0.13536860083385147, -0.0005718077734668259] [1.6, 5.2] }

-- ==
-- entry: reverse2
-- input { [0.5, 1.0, -2.0] [2.0, -1.0, 0.25] }
-- output { [1.0, -1.0, -0.5] 5.474099096586418 [0.8775825618903728, 0.5403023058681398, -0.4161468365471424] [4.0, -2.0, 0.5] }
-- input { [0.0] [3.0] }
-- output { [0.0] 9.0 [1.0] [6.0] }
-- input { [1.5, 2.5] [0.1, 0.2] }
-- output { [0.15000000000000002, 0.5] 1.645967130708011 [0.0707372016677029, -0.8011436155469337] [0.2, 0.4] }

-- ==
-- entry: gram_grad
-- input { [[1.0, 2.0], [3.0, 4.0]] }
-- output { [[8.0, 12.0], [8.0, 12.0]] }
-- input { [[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]] }
-- output { [[3.0, 1.0, -1.0], [3.0, 1.0, -1.0]] }

-- Forward and reverse mode over a function from a pair of arrays to a pair of
-- an array and a scalar.

def f [n] (xs: [n]f64, ys: [n]f64) : ([n]f64, f64) =
  (map2 (*) xs ys, f64.sum (map f64.sin xs) + f64.sum (map (\y -> y * y) ys))

entry forward [n] (xs: [n]f64) (ys: [n]f64) (dx: [n]f64) (dy: [n]f64) : ([n]f64, f64) =
  jvp f (xs, ys) (dx, dy)

entry reverse [n] (xs: [n]f64) (ys: [n]f64) (cz: [n]f64) (cs: f64) : ([n]f64, [n]f64) =
  vjp f (xs, ys) (cz, cs)

-- Primal result and the gradient of the scalar component.
entry reverse2 [n] (xs: [n]f64) (ys: [n]f64) : ([n]f64, f64, [n]f64, [n]f64) =
  let ((z, s), (gx, gy)) = vjp2 f (xs, ys) (replicate n 0, 1)
  in (z, s, gx, gy)

-- Gradient of the sum of all entries of A * A^T, a function of a matrix.
entry gram_grad [n] [m] (a: [n][m]f64) : [n][m]f64 =
  let g (a: [n][m]f64) : f64 =
    let aat = map (\r -> map (\s -> f64.sum (map2 (*) r s)) a) a
    in f64.sum (flatten aat)
  in vjp g a 1
