-- popc, clz and ctz for several integer types; zero has num_bits
-- leading and trailing zeros.
-- ==
-- input { 0 } output { 0 32 32 }
-- input { 1 } output { 1 31 0 }
-- input { -1 } output { 32 0 0 }
-- input { 12 } output { 2 28 2 }
-- input { -2147483648 } output { 1 0 31 }
-- input { 2147483647 } output { 31 1 0 }
-- input { 96 } output { 2 25 5 }

def main (x: i32): (i32, i32, i32) = (i32.popc x, i32.clz x, i32.ctz x)

-- ==
-- entry: i8_bits
-- input { 0i8 } output { 0 8 8 }
-- input { -1i8 } output { 8 0 0 }
-- input { 6i8 } output { 2 5 1 }
-- input { -128i8 } output { 1 0 7 }

entry i8_bits (x: i8): (i32, i32, i32) = (i8.popc x, i8.clz x, i8.ctz x)

-- ==
-- entry: u16_bits
-- input { 0u16 } output { 0 16 16 }
-- input { 256u16 } output { 1 7 8 }
-- input { 65535u16 } output { 16 0 0 }

entry u16_bits (x: u16): (i32, i32, i32) = (u16.popc x, u16.clz x, u16.ctz x)

-- ==
-- entry: i64_bits
-- input { 0i64 } output { 0 64 64 }
-- input { -1i64 } output { 64 0 0 }
-- input { 1099511627776i64 } output { 1 23 40 }
-- input { 3i64 } output { 2 62 0 }

entry i64_bits (x: i64): (i32, i32, i32) = (i64.popc x, i64.clz x, i64.ctz x)

-- ==
-- entry: u64_bits
-- input { 18446744073709551615u64 } output { 64 0 0 }
-- input { 8u64 } output { 1 60 3 }

entry u64_bits (x: u64): (i32, i32, i32) = (u64.popc x, u64.clz x, u64.ctz x)

-- ==
-- entry: u8_bits
-- input { 128u8 } output { 1 0 7 }
-- input { 0u8 } output { 0 8 8 }

entry u8_bits (x: u8): (i32, i32, i32) = (u8.popc x, u8.clz x, u8.ctz x)

-- ==
-- entry: i16_bits
-- input { -2i16 } output { 15 0 1 }
-- input { 1i16 } output { 1 15 0 }

entry i16_bits (x: i16): (i32, i32, i32) = (i16.popc x, i16.clz x, i16.ctz x)

-- ==
-- entry: u32_bits
-- input { 4294967295u32 } output { 32 0 0 }
-- input { 65536u32 } output { 1 15 16 }

entry u32_bits (x: u32): (i32, i32, i32) = (u32.popc x, u32.clz x, u32.ctz x)
