-- Hexadecimal and binary integer literals, with and without suffixes.
-- ==
-- input {} output { 255 10 255u8 4096i64 127i8 171 5u64 }

def main : (i32, i32, u8, i64, i8, i32, u64) =
  (0xff, 0b1010, 0xFFu8, 0x1000i64, 0x7fi8, 0xAb, 0b101u64)
