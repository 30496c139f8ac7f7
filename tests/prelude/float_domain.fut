-- Values outside a function's domain give NaN or infinities, not errors.
-- ==
-- input { } output { f64.nan -f64.inf f64.nan f64.inf f64.nan -f64.inf f64.inf }

def main: (f64, f64, f64, f64, f64, f64, f64) =
  (f64.sqrt (-1.0), f64.log 0.0, f64.log (-1.0), f64.exp 1000.0, f64.acos 2.0, f64.log2 0.0, f64.atanh 1.0)
