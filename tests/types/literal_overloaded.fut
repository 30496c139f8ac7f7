-- Unsuffixed literals take the type required by their context.
-- ==
-- input { 10u8 2.5f32 7i64 } output { 11u8 5.0f32 14i64 3.0f32 }

def main (a: u8) (b: f32) (c: i64) : (u8, f32, i64, f32) =
  (a + 1, b * 2, c * 2, 3)
