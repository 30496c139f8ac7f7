-- Integers carry tangents and adjoints, as in Futhark (the derivative of
-- i32.f64 and of f64.i32 is 1, see tests/regress/d_ad_numeric_conversion_tangent.fut):
-- integer tangents and adjoints are integers, so a float tangent or adjoint
-- converted to an integer is truncated.  Forward and reverse mode agree
-- wherever the values that reach an integer are whole numbers, and differ
-- (by that truncation) where they are not.
--
-- f (a, b) = f64.i64 (i64.f64 b) * a: jvp gives (trunc b, a); vjp gives
--   (trunc b, trunc a), the adjoint a of the integer truncated.
-- g x = f64.i64 (k * k + 2) * x + f64.i32 (i32.f64 x) + f64.f32 (f32.f64 x),
--   k = i64.f64 (3 x), at whole x: dg = 6 k x + k² + 2 + 1 + 1 in both modes.
-- h x = if i64.f64 x > 2 then x * x else 3 * x (an integer comparison
--   choosing the branch): dh = 2x or 3 in both modes.
-- ==
-- entry: fwd_f rev_f
-- input { 2.0 3.7 } output { 3.0 2.0 }
-- input { -3.0 -2.25 } output { -2.0 -3.0 }

-- ==
-- entry: fwd_f
-- input { 2.5 3.7 } output { 3.0 2.5 }

-- ==
-- entry: rev_f
-- input { 2.5 3.7 } output { 3.0 2.0 }

-- ==
-- entry: fwd_g rev_g
-- input { 1.0 } output { 31.0 }
-- input { -2.0 } output { 112.0 }

-- ==
-- entry: fwd_h rev_h
-- input { 3.5 } output { 7.0 }
-- input { 1.5 } output { 3.0 }

def f (a: f64, b: f64) : f64 = f64.i64 (i64.f64 b) * a

def g (x: f64) : f64 =
  let k = i64.f64 (3 * x)
  in f64.i64 (k * k + 2) * x + f64.i32 (i32.f64 x) + f64.f32 (f32.f64 x)

def h (x: f64) : f64 = if i64.f64 x > 2 then x * x else 3 * x

entry fwd_f (a: f64) (b: f64) : (f64, f64) = (jvp f (a, b) (1, 0), jvp f (a, b) (0, 1))
entry rev_f (a: f64) (b: f64) : (f64, f64) = vjp f (a, b) 1

entry fwd_g (x: f64) : f64 = jvp g x 1
entry rev_g (x: f64) : f64 = vjp g x 1

entry fwd_h (x: f64) : f64 = jvp h x 1
entry rev_h (x: f64) : f64 = vjp h x 1
