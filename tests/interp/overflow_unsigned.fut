-- Unsigned arithmetic wraps modulo 2^width.
-- ==
-- input { 0u8 0u16 0u32 0u64 }
-- output { 255u8 65535u16 4294967295u32 18446744073709551615u64 }
-- input { 1u8 1u16 1u32 1u64 }
-- output { 0u8 0u16 0u32 0u64 }

def main (a: u8) (b: u16) (c: u32) (d: u64) : (u8, u16, u32, u64) =
  (a - 1, b - 1, c - 1, d - 1)
