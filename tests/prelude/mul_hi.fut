-- mul_hi is the upper half of the double-width product (signed or
-- unsigned according to the type); mad_hi a b c = mul_hi a b + c.

-- ==
-- entry: i32_mul_hi
-- input { 65536i32 65536i32 } output { 1i32 8i32 }
-- input { -1i32 1i32 } output { -1i32 6i32 }
-- input { 2147483647i32 2147483647i32 } output { 1073741823i32 1073741830i32 }
-- input { -2147483648i32 -2147483648i32 } output { 1073741824i32 1073741831i32 }
-- input { 123456789i32 -987654321i32 } output { -28389653i32 -28389646i32 }

entry i32_mul_hi (x: i32) (y: i32): (i32, i32) = (i32.mul_hi x y, i32.mad_hi x y 7i32)

-- ==
-- entry: u32_mul_hi
-- input { 4294967295u32 4294967295u32 } output { 4294967294u32 5u32 }
-- input { 65536u32 65536u32 } output { 1u32 8u32 }
-- input { 3u32 5u32 } output { 0u32 7u32 }

entry u32_mul_hi (x: u32) (y: u32): (u32, u32) = (u32.mul_hi x y, u32.mad_hi x y 7u32)

-- ==
-- entry: i64_mul_hi
-- input { 4294967296i64 4294967296i64 } output { 1i64 8i64 }
-- input { -1i64 1i64 } output { -1i64 6i64 }
-- input { -9223372036854775808i64 2i64 } output { -1i64 6i64 }

entry i64_mul_hi (x: i64) (y: i64): (i64, i64) = (i64.mul_hi x y, i64.mad_hi x y 7i64)

-- ==
-- entry: u64_mul_hi
-- input { 18446744073709551615u64 18446744073709551615u64 } output { 18446744073709551614u64 5u64 }
-- input { 4294967296u64 4294967296u64 } output { 1u64 8u64 }

entry u64_mul_hi (x: u64) (y: u64): (u64, u64) = (u64.mul_hi x y, u64.mad_hi x y 7u64)

-- ==
-- entry: i8_mul_hi
-- input { -128i8 -128i8 } output { 64i8 71i8 }
-- input { 100i8 -100i8 } output { -40i8 -33i8 }

entry i8_mul_hi (x: i8) (y: i8): (i8, i8) = (i8.mul_hi x y, i8.mad_hi x y 7i8)

-- ==
-- entry: u8_mul_hi
-- input { 255u8 255u8 } output { 254u8 5u8 }
-- input { 16u8 16u8 } output { 1u8 8u8 }

entry u8_mul_hi (x: u8) (y: u8): (u8, u8) = (u8.mul_hi x y, u8.mad_hi x y 7u8)
