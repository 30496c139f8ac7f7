-- << >> >>>: >> is arithmetic for signed types and logical for
-- unsigned ones; >>> is always logical.
-- ==
-- input { -16 2 } output { -64 -4 1073741820 }
-- input { 16 2 } output { 64 4 4 }
-- input { 1 31 } output { -2147483648 0 0 }
-- input { -1 31 } output { -2147483648 -1 1 }
-- input { -2147483648 1 } output { 0 -1073741824 1073741824 }
-- input { 12345 0 } output { 12345 12345 12345 }

-- ==
-- entry: u8s
-- input { 240u8 4u8 } output { 0u8 15u8 15u8 }
-- input { 1u8 7u8 } output { 128u8 0u8 0u8 }
-- input { 255u8 1u8 } output { 254u8 127u8 127u8 }

-- ==
-- entry: i64s
-- input { -1i64 63i64 } output { -9223372036854775808i64 -1i64 1i64 }
-- input { 1i64 62i64 } output { 4611686018427387904i64 0i64 0i64 }
-- input { -256i64 4i64 } output { -4096i64 -16i64 1152921504606846960i64 }

def main (x: i32) (s: i32): (i32, i32, i32) = (x << s, x >> s, x >>> s)

entry u8s (x: u8) (s: u8): (u8, u8, u8) = (x << s, x >> s, x >>> s)

entry i64s (x: i64) (s: i64): (i64, i64, i64) = (x i64.<< s, x i64.>> s, x i64.>>> s)
