-- nextafter, ldexp and frexp.
-- ==
-- entry: next
-- input { 1.0f64 2.0f64 } output { 1.0000000000000002f64 }
-- input { 1.0f64 0.0f64 } output { 0.9999999999999999f64 }
-- input { 0.0f64 1.0f64 } output { 5.0e-324f64 }
-- input { 0.0f64 -1.0f64 } output { -5.0e-324f64 }
-- input { -1.0f64 -2.0f64 } output { -1.0000000000000002f64 }
-- input { 2.0f64 2.0f64 } output { 2.0f64 }
-- input { f64.inf 0.0f64 } output { 1.7976931348623157e308f64 }
-- input { f64.nan 1.0 } output { f64.nan }

-- ==
-- entry: ldexp
-- input { 1.5 4 } output { 24.0 }
-- input { 3.0 -2 } output { 0.75 }
-- input { 1.0 1024 } output { f64.inf }
-- input { 1.0 -1074 } output { 5.0e-324 }

-- ==
-- entry: frexp
-- input { 8.0f64 } output { 0.5f64 4 }
-- input { 0.3f64 } output { 0.6f64 -1 }
-- input { -5.0f64 } output { -0.625f64 3 }
-- input { 1.0e-310f64 } output { 0.5752618031559393f64 -1029 }
-- input { 0.0f64 } output { 0.0f64 0 }
-- input { f64.inf } output { f64.inf 0 }

-- ==
-- entry: f32s
-- input { 1.0f32 } output { 1.00000012f32 4.0f32 0.5f32 1 }

entry next (x: f64) (y: f64): f64 = f64.nextafter x y

entry ldexp (x: f64) (k: i32): f64 = f64.ldexp x k

entry frexp (x: f64): (f64, i32) = f64.frexp x

entry f32s (x: f32): (f32, f32, f32, i32) =
  (f32.nextafter x 2.0f32, f32.ldexp x 2, (f32.frexp x).0, (f32.frexp x).1)
