-- to_bits/from_bits, get_bit/set_bit and copysign on floats.
-- ==
-- entry: bits64
-- input { 1.0 } output { 4607182418800017408u64 1.0 0 0 }
-- input { -2.0 } output { 13835058055282163712u64 -2.0 1 1 }
-- input { -0.0 } output { 9223372036854775808u64 -0.0 1 0 }

-- ==
-- entry: bits32
-- input { 1.5f32 } output { 1069547520u32 1.5f32 }
-- input { -0.1f32 } output { 3184315597u32 -0.1f32 }

-- ==
-- entry: bits16
-- input { 1.0f16 } output { 15360u16 1.0f16 }

-- ==
-- entry: setbit
-- input { 1.0 } output { -1.0 0.5 f64.inf 1.0 }

-- ==
-- entry: copysign
-- input { 3.0 -0.0 } output { -3.0 3.0 }
-- input { -3.0 2.0 } output { 3.0 -3.0 }
-- input { f64.inf -1.0 } output { -f64.inf f64.inf }

entry bits64 (x: f64): (u64, f64, i32, i32) =
  (f64.to_bits x, f64.from_bits (f64.to_bits x), f64.get_bit 63 x, f64.get_bit 62 x)

entry bits32 (x: f32): (u32, f32) = (f32.to_bits x, f32.from_bits (f32.to_bits x))

entry bits16 (x: f16): (u16, f16) = (f16.to_bits x, f16.from_bits (f16.to_bits x))

-- Bit 63 is the sign; bit 52 is the lowest exponent bit.
entry setbit (x: f64): (f64, f64, f64, f64) =
  (f64.set_bit 63 x 1, f64.set_bit 52 x 0, f64.set_bit 62 x 1, f64.set_bit 63 (f64.set_bit 63 x 1) 0)

entry copysign (x: f64) (y: f64): (f64, f64) = (f64.copysign x y, f64.copysign x (-y))
