-- Conversions to and from bool: non-zero (including NaN) is true.
-- ==
-- input { 0 0.0 } output { false false 0 0.0 }
-- input { -3 -0.0 } output { true false 1 1.0 }
-- input { 7 f64.nan } output { true true 1 1.0 }

-- ==
-- entry: more
-- input { 0u8 255u8 0.5f32 } output { false true true 1u8 1.0f32 0i64 }

def main (x: i32) (y: f64): (bool, bool, i32, f64) =
  (bool.i32 x, bool.f64 y, i32.bool (bool.i32 x || bool.f64 y), f64.bool (x != 0 || y != y))

entry more (a: u8) (b: u8) (c: f32): (bool, bool, bool, u8, f32, i64) =
  (bool.u8 a, bool.u8 b, bool.f32 c, u8.bool (bool.u8 b), f32.bool true, i64.bool false)
