-- Float literals with f16, f32 and f64 suffixes; unsuffixed decimals default to f64.
-- ==
-- input {} output { 1.5f16 2.25f32 3.125f64 0.5 }

def main : (f16, f32, f64, f64) = (1.5f16, 2.25f32, 3.125f64, 0.5)
