-- get_bit and set_bit on integers.
-- ==
-- input { 5 0 } output { 1 5 4 }
-- input { 5 1 } output { 0 7 5 }
-- input { 5 2 } output { 1 5 1 }
-- input { -1 31 } output { 1 -1 2147483647 }
-- input { -2147483648 31 } output { 1 -2147483648 0 }
-- input { 2147483647 31 } output { 0 -1 2147483647 }

-- ==
-- entry: wide
-- input { 0i64 40 } output { 0 1099511627776i64 0i64 }
-- input { -1i64 63 } output { 1 -1i64 9223372036854775807i64 }

-- ==
-- entry: small
-- input { 128u8 7 } output { 1 128u8 0u8 }
-- input { 0u8 3 } output { 0 8u8 0u8 }

def main (x: i32) (i: i32): (i32, i32, i32) = (i32.get_bit i x, i32.set_bit i x 1, i32.set_bit i x 0)

entry wide (x: i64) (i: i32): (i32, i64, i64) = (i64.get_bit i x, i64.set_bit i x 1, i64.set_bit i x 0)

entry small (x: u8) (i: i32): (i32, u8, u8) = (u8.get_bit i x, u8.set_bit i x 1, u8.set_bit i x 0)
