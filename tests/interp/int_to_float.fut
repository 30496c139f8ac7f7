-- Converting integers to floats rounds to the nearest representable value.
-- ==
-- input { 16777217 -3 } output { 16777216.0f32 16777217.0 -3.0f32 255.0 }

def main (a: i32) (b: i32) : (f32, f64, f32, f64) =
  (f32.i32 a, f64.i32 a, f32.i32 b, f64.u8 255u8)
