-- abs, sgn, neg, min, max, highest, lowest and num_bits.
-- ==
-- input { -5 3 } output { 5 -1 5 -5 3 }
-- input { 0 0 } output { 0 0 0 0 0 }
-- input { 7 -9 } output { 7 1 -7 -9 7 }
-- input { -2147483648 0 } output { -2147483648 -1 -2147483648 -2147483648 0 }

-- ==
-- entry: unsigned
-- input { 0u16 7u16 } output { 0u16 0u16 0u16 0u16 7u16 }
-- input { 9u16 7u16 } output { 9u16 1u16 65527u16 7u16 9u16 }

-- ==
-- entry: limits
-- input { } output { 127i8 -128i8 32767i16 -32768i16 2147483647i32 -2147483648i32 9223372036854775807i64 -9223372036854775808i64 255u8 0u8 65535u16 0u16 4294967295u32 0u32 18446744073709551615u64 0u64 }

-- ==
-- entry: widths
-- input { } output { [8, 16, 32, 64, 8, 16, 32, 64] }

def main (x: i32) (y: i32): (i32, i32, i32, i32, i32) = (i32.abs x, i32.sgn x, i32.neg x, i32.min x y, i32.max x y)

entry unsigned (x: u16) (y: u16): (u16, u16, u16, u16, u16) = (u16.abs x, u16.sgn x, u16.neg x, u16.min x y, u16.max x y)

entry limits: (i8, i8, i16, i16, i32, i32, i64, i64, u8, u8, u16, u16, u32, u32, u64, u64) =
               (i8.highest, i8.lowest, i16.highest, i16.lowest, i32.highest, i32.lowest,
                i64.highest, i64.lowest, u8.highest, u8.lowest, u16.highest, u16.lowest,
                u32.highest, u32.lowest, u64.highest, u64.lowest)

entry widths: []i32 = [i8.num_bits, i16.num_bits, i32.num_bits, i64.num_bits,
                       u8.num_bits, u16.num_bits, u32.num_bits, u64.num_bits]
