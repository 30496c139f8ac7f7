-- Underscores separate digits in integer literals of any base.
-- ==
-- input {} output { 1000000 65535 10i64 1000000000000i64 }

def main : (i32, i32, i64, i64) =
  (1_000_000, 0xff_ff, 0b1_010i64, 1_000_000_000_000i64)
