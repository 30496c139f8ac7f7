-- NaN and infinities: constants, predicates, comparisons, min/max.
-- ==
-- input { 1.0 } output { true false false true false false 1.0 -1.0 }
-- input { f64.nan } output { true true false false false false f64.nan f64.nan }
-- input { f64.inf } output { true false true false false false f64.inf -f64.inf }

-- ==
-- entry: consts
-- input { } output { f64.inf -f64.inf f64.nan f32.inf f32.nan f64.inf -f64.inf }

-- ==
-- entry: predicates
-- input { } output { [false, false, true, true, false] [true, false, false, false, false] }

def main (x: f64): (bool, bool, bool, bool, bool, bool, f64, f64) =
  let n = f64.nan
  in (n != n, f64.isnan x, f64.isinf x, x == x + 0.0 && x < f64.inf, x > f64.highest, x < f64.lowest,
      f64.max x n, f64.min n (-x))

entry consts: (f64, f64, f64, f32, f32, f64, f64) =
  (f64.inf, -f64.inf, f64.nan, f32.inf, f32.nan, 1.0 / 0.0, f64.lowest)

entry predicates: ([]bool, []bool) =
  (map f64.isinf [1.0, f64.nan, f64.inf, -f64.inf, 0.0],
   map f32.isnan [f32.nan, f32.inf, 0.0f32, -1.0f32, f32.highest])
