-- Half-precision floats: arithmetic, functions and conversions.
-- ==
-- input { 1.5f16 2.0f16 } output { 3.5f16 3.0f16 1.2246f16 1.5f32 }
-- input { 0.099976f16 0.19995f16 } output { 0.2998f16 0.019989f16 0.31616f16 0.0999755859f32 }

-- ==
-- entry: limits
-- input { } output { f16.inf -f16.inf 0.0009765625f16 16 65504.0f16 }

def main (x: f16) (y: f16): (f16, f16, f16, f32) = (x + y, x * y, f16.sqrt x, f32.f16 x)

entry limits: (f16, f16, f16, i32, f16) =
  (f16.highest, f16.lowest, f16.epsilon, f16.num_bits, f16.from_bits 0x7bffu16)
