-- Conversions between integer types truncate to the target width;
-- widening sign-extends only from a signed type to a signed type and
-- zero-extends otherwise (`u64.i32 (-1)` is 4294967295), as in Futhark.
-- ==
-- input { 300 } output { 44i8 44u8 300i16 300i64 300u32 300u64 }
-- input { -1 } output { -1i8 255u8 -1i16 -1i64 4294967295u32 4294967295u64 }
-- input { -129 } output { 127i8 127u8 -129i16 -129i64 4294967167u32 4294967167u64 }
-- input { 2147483647 } output { -1i8 255u8 -1i16 2147483647i64 2147483647u32 2147483647u64 }

-- ==
-- entry: from_unsigned
-- input { 200u8 4294967295u32 } output { -56i8 200i32 200i64 -1i32 4294967295i64 65535u16 }

-- ==
-- entry: from_i64
-- input { 4294967297i64 } output { 1i32 1u32 1u8 4294967297u64 }
-- input { -9223372036854775808i64 } output { 0i32 0u32 0u8 9223372036854775808u64 }

def main (x: i32): (i8, u8, i16, i64, u32, u64) =
  (i8.i32 x, u8.i32 x, i16.i32 x, i64.i32 x, u32.i32 x, u64.i32 x)

entry from_unsigned (a: u8) (b: u32): (i8, i32, i64, i32, i64, u16) =
  (i8.u8 a, i32.u8 a, i64.u8 a, i32.u32 b, i64.u32 b, u16.u32 b)

entry from_i64 (x: i64): (i32, u32, u8, u64) = (i32.i64 x, u32.i64 x, u8.i64 x, u64.i64 x)
