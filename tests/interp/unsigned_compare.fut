-- Unsigned comparison: large values are greater than small ones.
-- ==
-- input { 200u8 100u8 } output { true false 200u8 100u8 }
-- input { 4u8 255u8 } output { false true 255u8 4u8 }

def main (a: u8) (b: u8) : (bool, bool, u8, u8) =
  (a > b, a < b, u8.max a b, u8.min a b)
