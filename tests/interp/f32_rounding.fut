-- f32 arithmetic is rounded to single precision after every operation.
-- ==
-- input { 16777216.0f32 0.1f32 0.2f32 } output { true false true 0.3f32 }

def main (big: f32) (a: f32) (b: f32) : (bool, bool, bool, f32) =
  (big + 1 == big, big + 2 == big, a + b == 0.3f32, a + b)
