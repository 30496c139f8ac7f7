-- Float to integer conversion truncates towards zero.  NaN and the
-- infinities become 0; finite values outside the target range wrap modulo
-- 2^bits, as in Futhark (`u32.f32 (-1)` is 4294967295; see prelude/INTRINSICS.md).
-- ==
-- input { 3.7f64 } output { 3i8 3u8 3i32 3i64 3u64 3u16 }
-- input { -3.7f64 } output { -3i8 253u8 -3i32 -3i64 18446744073709551613u64 65533u16 }
-- input { 0.5f64 } output { 0i8 0u8 0i32 0i64 0u64 0u16 }
-- input { -0.5f64 } output { 0i8 0u8 0i32 0i64 0u64 0u16 }
-- input { 300.0f64 } output { 44i8 44u8 300i32 300i64 300u64 300u16 }
-- input { -300.0f64 } output { -44i8 212u8 -300i32 -300i64 18446744073709551316u64 65236u16 }
-- input { 1.0e30f64 } output { 0i8 0u8 0i32 5076964154930102272i64 5076964154930102272u64 0u16 }
-- input { -1.0e30f64 } output { 0i8 0u8 0i32 -5076964154930102272i64 13369779918779449344u64 0u16 }
-- input { f64.nan } output { 0i8 0u8 0i32 0i64 0u64 0u16 }
-- input { f64.inf } output { 0i8 0u8 0i32 0i64 0u64 0u16 }
-- input { -f64.inf } output { 0i8 0u8 0i32 0i64 0u64 0u16 }
-- input { 2147483647.9f64 } output { -1i8 255u8 2147483647i32 2147483647i64 2147483647u64 65535u16 }
-- input { -2147483648.9f64 } output { 0i8 0u8 -2147483648i32 -2147483648i64 18446744071562067968u64 0u16 }

-- ==
-- entry: from_f32
-- input { 2.5f32 } output { 2i32 2u32 2i64 }
-- input { -2.5f32 } output { -2i32 4294967294u32 -2i64 }
-- input { 1.0e10f32 } output { 1410065408i32 1410065408u32 10000000000i64 }
-- input { f32.nan } output { 0i32 0u32 0i64 }
-- input { -f32.inf } output { 0i32 0u32 0i64 }

-- ==
-- entry: to_i64
-- input { -7.9 } output { -7i64 -7i64 }

def main (x: f64): (i8, u8, i32, i64, u64, u16) =
  (i8.f64 x, u8.f64 x, i32.f64 x, i64.f64 x, u64.f64 x, u16.f64 x)

entry from_f32 (x: f32): (i32, u32, i64) = (i32.f32 x, u32.f32 x, i64.f32 x)

entry to_i64 (x: f64): (i64, i64) = (f64.to_i64 x, f32.to_i64 (f32.f64 x))
