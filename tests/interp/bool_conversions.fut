-- Conversions between bool and numbers.
-- ==
-- input { true false } output { 1 0i64 1.0f32 1u8 }

def main (a: bool) (b: bool) : (i32, i64, f32, u8) =
  (i32.bool a, i64.bool b, f32.bool a, u8.bool a)
