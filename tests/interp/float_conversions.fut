-- Conversions between float types.
-- ==
-- input { 0.1 } output { 0.1f32 true 0.0999755859375f16 }

def main (x: f64) : (f32, bool, f16) =
  (f32.f64 x, f64.f32 (f32.f64 x) != x, f16.f64 x)
