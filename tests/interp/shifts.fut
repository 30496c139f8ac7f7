-- Shifts: << left, >> arithmetic right on signed types, >>> logical right.
-- ==
-- input { 1 -16 } output { 256 -4 1073741820 -2147483648 }

def main (a: i32) (b: i32) : (i32, i32, i32, i32) =
  (a << 8, b >> 2, b >>> 2, a << 31)
