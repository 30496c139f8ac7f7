-- & | ^ and not on signed and unsigned integers.
-- ==
-- input { 12 10 } output { 8 14 6 -13 }
-- input { -1 0 } output { 0 -1 -1 0 }

-- ==
-- entry: u16s
-- input { 65280u16 4080u16 } output { 3840u16 65520u16 61680u16 255u16 }

-- ==
-- entry: mods
-- input { 5u8 } output { 250u8 -6i8 -6i64 18446744073709551610u64 }

def main (x: i32) (y: i32): (i32, i32, i32, i32) = (x & y, x | y, x ^ y, i32.not x)

entry u16s (x: u16) (y: u16): (u16, u16, u16, u16) = (x u16.& y, x u16.| y, x u16.^ y, u16.not x)

entry mods (x: u8): (u8, i8, i64, u64) = (u8.not x, i8.not (i8.u8 x), i64.not (i64.u8 x), u64.not (u64.u8 x))
