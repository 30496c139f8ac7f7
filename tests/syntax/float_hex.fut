-- Hexadecimal float literals: mantissa in hex, binary exponent after p.
-- ==
-- input {} output { 3.0 0.5f32 10.0 }

def main : (f64, f32, f64) = (0x1.8p1, 0x1.0p-1f32, 0xA.0p0)
