-- Float literals with exponents.
-- ==
-- input {} output { 1000.0 0.0025 120000.0f32 1.0e-3f64 3.0e10 }

def main : (f64, f64, f32, f64, f64) = (1e3, 2.5e-3, 1.2E5f32, 1.0e-3f64, 3e10)
