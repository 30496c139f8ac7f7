-- Converting a float to an integer truncates towards zero.
-- ==
-- input { 2.7 -2.7 3.99f32 } output { 2 -2 3i64 -3i8 200u8 }

def main (a: f64) (b: f64) (c: f32) : (i32, i32, i64, i8, u8) =
  (i32.f64 a, i32.f64 b, i64.f32 c, i8.f32 (-c), u8.f64 200.9)
