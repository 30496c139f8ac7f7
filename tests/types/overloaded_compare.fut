-- Comparison operators are overloaded on numeric types and bool.
-- ==
-- input { 1u32 2u32 1.5f32 1.5f32 } output { true false true true }

def main (a: u32) (b: u32) (c: f32) (d: f32) : (bool, bool, bool, bool) =
  (a < b, a >= b, c == d, true > false)
