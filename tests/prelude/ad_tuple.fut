-- AD of functions on tuples and of functions returning tuples.
-- ==
-- entry: grad
-- input { 2.0 3.0 } output { 2.5838531634528574f64 2.0 2.5838531634528574f64 2.0 }

-- ==
-- entry: pair_out
-- input { 3.0 } output { 8.0 9.0 6.0 6.0 2.0 }

-- ==
-- entry: int_part
-- input { 1.5 4i64 } output { 4.0 1i64 14.5 6.0 }

def f (x: f64, y: f64): f64 = x * y + f64.sin x

entry grad (x: f64) (y: f64): (f64, f64, f64, f64) =
  let (gx, gy) = vjp f (x, y) 1.0
  in (gx, gy, jvp f (x, y) (1.0, 0.0), jvp f (x, y) (0.0, 1.0))

def g (x: f64): (f64, f64) = (x * x, 2.0 * x)

entry pair_out (x: f64): (f64, f64, f64, f64, f64) =
  let (p, _) = vjp2 g x (1.0, 1.0)
  let (d1, d2) = jvp g x 1.0
  in (vjp g x (1.0, 1.0), p.0, (vjp2 g x (1.0, 0.0)).1, d1, d2)

-- Integers carry (co)tangents too, and conversions pass them on, as in Futhark:
-- the cotangent of k is i64.f64 1.5 = 1, and the tangent is 4*1 + 1.5*7.
entry int_part (x: f64) (n: i64): (f64, i64, f64, f64) =
  let h (a: f64, k: i64) = a * f64.i64 k
  let (dx, dn) = vjp h (x, n) 1.0
  in (dx, dn, jvp h (x, n) (1.0, 7), h (x, n))
