-- Qualified names for special float values.
-- ==
-- input {} output { f32.inf -f64.inf true true false }

def main : (f32, f64, bool, bool, bool) =
  (f32.inf, -f64.inf, f64.isnan f64.nan, f32.isinf (-f32.inf), f64.nan == f64.nan)
