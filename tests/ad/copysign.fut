-- copysign x y has the magnitude of x and the sign of y, so it is x or -x:
-- d/dx = 1 when the signs of x and y agree, else -1, and d/dy = 0 (also
-- for zeros, whose sign is their sign bit).  Checked in forward and reverse
-- mode, for f64 and f32, and through a vjp of a vjp (the second derivative
-- of copysign (x*x*x) y is 6x or -6x).
-- ==
-- entry: fwd64 rev64
-- input { 2.0 3.0 } output { 2.0 1.0 0.0 }
-- input { 2.0 -3.0 } output { -2.0 -1.0 0.0 }
-- input { -2.0 3.0 } output { 2.0 -1.0 0.0 }
-- input { -2.0 -0.5 } output { -2.0 1.0 0.0 }
-- input { 1.5 -0.0 } output { -1.5 -1.0 0.0 }
-- input { -1.5 0.0 } output { 1.5 -1.0 0.0 }

-- ==
-- entry: fwd32 rev32
-- input { 2.0f32 -3.0f32 } output { -2.0f32 -1.0f32 0.0f32 }
-- input { -0.25f32 4.0f32 } output { 0.25f32 -1.0f32 0.0f32 }

-- ==
-- entry: second
-- input { 2.0 -1.0 } output { -12.0 -12.0 }
-- input { -1.0 5.0 } output { 6.0 6.0 }

entry fwd64 (x: f64) (y: f64) : (f64, f64, f64) =
  let f (a, b) = f64.copysign a b
  in (f (x, y), jvp f (x, y) (1, 0), jvp f (x, y) (0, 1))

entry rev64 (x: f64) (y: f64) : (f64, f64, f64) =
  let f (a, b) = f64.copysign a b
  let (dx, dy) = vjp f (x, y) 1
  in (f (x, y), dx, dy)

entry fwd32 (x: f32) (y: f32) : (f32, f32, f32) =
  let f (a, b) = f32.copysign a b
  in (f (x, y), jvp f (x, y) (1, 0), jvp f (x, y) (0, 1))

entry rev32 (x: f32) (y: f32) : (f32, f32, f32) =
  let f (a, b) = f32.copysign a b
  let (dx, dy) = vjp f (x, y) 1
  in (f (x, y), dx, dy)

entry second (x: f64) (y: f64) : (f64, f64) =
  let f a = f64.copysign (a * a * a) y
  let d a = vjp f a 1
  in (vjp d x 1, jvp d x 1)
