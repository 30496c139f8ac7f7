-- Integer to float conversion rounds to nearest (ties to even).
-- ==
-- input { 9007199254740993i64 16777217i32 } output { 9007199254740992.0f64 16777216.0f32 16777217.0f64 }
-- input { -3i64 -3i32 } output { -3.0f64 -3.0f32 -3.0f64 }

-- ==
-- entry: unsigned
-- input { 18446744073709551615u64 255u8 } output { 1.8446744073709552e19f64 1.84467441e19f32 255.0f32 }

-- ==
-- entry: small
-- input { -128i8 65535u16 } output { -128.0f16 f16.inf -128.0f32 }

def main (x: i64) (y: i32): (f64, f32, f64) = (f64.i64 x, f32.i32 y, f64.i32 y)

entry unsigned (x: u64) (y: u8): (f64, f32, f32) = (f64.u64 x, f32.u64 x, f32.u8 y)

entry small (x: i8) (y: u16): (f16, f16, f32) = (f16.i8 x, f16.u16 y, f32.i8 x)
