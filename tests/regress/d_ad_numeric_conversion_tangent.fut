-- Integers carry tangents in AD, so converting between integer and
-- floating-point types passes the (co)tangent through the conversion:
-- the derivative of i32.f64 and of f64.i32 is 1 (as in upstream
-- Futhark's tests/ad/conv1.fut).

-- ==
-- entry: fwd_f2i
-- input { 1.5f64 } output { 1i32 }

entry fwd_f2i (x: f64) : i32 = jvp i32.f64 x 1

-- ==
-- entry: rev_f2i
-- input { 1.5f64 } output { 2.0f64 }

entry rev_f2i (x: f64) : f64 = vjp i32.f64 x 2

-- ==
-- entry: fwd_i2f
-- input { 3i32 } output { 1.0f64 }

entry fwd_i2f (x: i32) : f64 = jvp f64.i32 x 1
