-- Arithmetic operators are overloaded on every numeric type.
-- ==
-- input { 3i8 3u16 3i64 3.0f32 3.0f16 } output { 9i8 9u16 9i64 9.0f32 9.0f16 }

def main (a: i8) (b: u16) (c: i64) (d: f32) (e: f16) : (i8, u16, i64, f32, f16) =
  (a * a, b * b, c * c, d * d, e * e)
