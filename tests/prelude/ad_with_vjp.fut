-- with_vjp: the given adjoint function replaces reverse-mode
-- differentiation of f; forward mode and plain evaluation use f.
-- ==
-- input { 3.0 } output { 9.0 100.0 6.0 900.0 }

-- ==
-- entry: tape
-- input { 2.0 } output { 4.0 7.0 }

def sq_custom (x: f64): f64 = with_vjp (\a -> a * a) (\_ dy -> 100.0 * dy) x

def main (x: f64): (f64, f64, f64, f64) =
  (sq_custom x, vjp sq_custom x 1.0, jvp sq_custom x 1.0, vjp (\a -> sq_custom a * sq_custom x) x 1.0)

entry tape (x: f64): (f64, f64) =
  let f = with_vjp_tape (\a -> (a + 1.5, a * a)) (\(t, dy) -> t * dy * 2.0)
  in (f x, vjp f x 1.0)
