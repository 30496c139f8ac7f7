-- jvp/vjp (and the 2-variants) of scalar functions.
-- ==
-- entry: cube
-- input { 2.0 } output { 8.0 12.0 12.0 8.0 12.0 }
-- input { -1.0 } output { -1.0 3.0 3.0 -1.0 3.0 }

-- ==
-- entry: trig
-- input { 0.5 } output { 0.8775825618903728f64 1.6487212707001282f64 2.2373281197977843f64 }

-- ==
-- entry: scaled
-- input { 3.0 5.0 } output { 6.0 6.0 }

def cube3 (x: f64): f64 = x * x * x

entry cube (x: f64): (f64, f64, f64, f64, f64) =
  let (y1, d1) = jvp2 cube3 x 2.0
  let (y2, d2) = vjp2 cube3 x 2.0
  in (y1, d1 / 2.0, vjp cube3 x 1.0, y2, d2 / 2.0)

entry trig (x: f64): (f64, f64, f64) =
  (jvp f64.sin x 1.0, vjp f64.exp x 1.0, jvp (\t -> f64.sin t * f64.exp t) x 1.0)

-- A free variable is a constant for differentiation.
entry scaled (c: f64) (x: f64): (f64, f64) =
  let f = \t -> c * t * t / x
  in (jvp f x 1.0, vjp f x 1.0 + 0.0 * c)
