-- Integer arithmetic wraps around on overflow.
-- ==
-- entry: add
-- input { 127i8 1i8 } output { -128i8 0u8 -32768i16 -2147483648 -9223372036854775808i64 }

-- ==
-- entry: mul
-- input { 16i8 } output { 0i8 0u8 65536i32 -2147483648i32 }

-- ==
-- entry: sub
-- input { 0u32 } output { 4294967295u32 18446744073709551615u64 }

-- ==
-- entry: neg
-- input { -128i8 -2147483648 } output { -128i8 -2147483648 2147483647 }

entry add (x: i8) (y: i8): (i8, u8, i16, i32, i64) =
  (x + y, 255u8 + u8.i8 y, i16.highest + 1, i32.highest + 1, i64.highest + 1)

entry mul (x: i8): (i8, u8, i32, i32) =
  (x * x, u8.i8 x * u8.i8 x, i32.i8 x ** 4, 65536 * 32768)

entry sub (x: u32): (u32, u64) = (x - 1, u64.u32 x - 1)

entry neg (x: i8) (y: i32): (i8, i32, i32) = (-x, i32.neg y, y - 1)
