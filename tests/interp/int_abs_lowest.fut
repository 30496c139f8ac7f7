-- abs of the lowest value wraps to itself; highest/lowest constants.
-- ==
-- input {} output { -2147483648 2147483647 -128i8 255u8 0u8 }

def main : (i32, i32, i8, u8, u8) =
  (i32.abs i32.lowest, i32.highest, i8.lowest, u8.highest, u8.lowest)
