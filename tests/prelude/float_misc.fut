-- lerp, fma, mad, hypot, atan2, recip, from_fraction and constants.
-- ==
-- entry: lerp
-- input { 1.0f64 3.0f64 0.25f64 } output { 1.5f64 }
-- input { -2.0f64 2.0f64 0.5f64 } output { 0.0f64 }
-- input { 5.0f64 5.0f64 0.9f64 } output { 5.0f64 }

-- ==
-- entry: fused
-- input { 2.0 3.0 4.0 } output { 10.0 10.0 }
-- input { 0.1 10.0 -1.0 } output { 5.551115123125783e-17f64 0.0f64 }

-- ==
-- entry: hyp
-- input { 3.0 4.0 } output { 5.0 0.6435011087932844f64 }
-- input { 1.0e200 1.0e200 } output { 1.414213562373095e200f64 0.7853981633974483f64 }
-- input { 1.0 0.0 } output { 1.0 1.5707963267948966f64 }

-- ==
-- entry: misc
-- input { 4.0 } output { 0.25 0.75 3.141592653589793f64 2.718281828459045f64 2.220446049250313e-16f64 }

-- ==
-- entry: abs_sgn
-- input { -2.5 } output { 2.5 -1.0 2.5 }
-- input { 0.0 } output { 0.0 0.0 -0.0 }
-- input { 3.0 } output { 3.0 1.0 -3.0 }
-- input { -f64.inf } output { f64.inf -1.0 f64.inf }

-- ==
-- entry: f32_consts
-- input { } output { 3.14159274f32 2.71828175f32 1.1920929e-07f32 }

entry lerp (a: f64) (b: f64) (t: f64): f64 = f64.lerp a b t

entry fused (a: f64) (b: f64) (c: f64): (f64, f64) = (f64.fma a b c, f64.mad a b c)

entry hyp (x: f64) (y: f64): (f64, f64) = (f64.hypot x y, f64.atan2 x y)

entry misc (x: f64): (f64, f64, f64, f64, f64) =
  (f64.recip x, f64.from_fraction 3 4, f64.pi, f64.e, f64.epsilon)

entry abs_sgn (x: f64): (f64, f64, f64) = (f64.abs x, f64.sgn x, f64.neg x)

entry f32_consts: (f32, f32, f32) = (f32.pi, f32.e, f32.epsilon)
