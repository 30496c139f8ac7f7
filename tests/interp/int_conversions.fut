-- Conversions between integer types truncate or extend; extension is a sign
-- extension only between signed types (`u64.i32 (-1)` is 4294967295).
-- ==
-- input { 300 -56 -1 }
-- output { 44u8 -56i8 200u8 4294967295u32 4294967295u64 -1i64 65280i32 -1294967296i32 }

def main (a: i32) (b: i32) (c: i32) : (u8, i8, u8, u32, u64, i64, i32, i32) =
  (u8.i32 a, i8.i32 b, u8.i8 (i8.i32 b), u32.i32 c, u64.i32 c, i64.i32 c,
   i32.u16 (u16.i32 (c << 8)), i32.u32 3000000000u32)
