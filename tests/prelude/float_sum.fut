-- sum, product, maximum and minimum on floats; empty cases give
-- 0, 1, -inf and inf.
-- ==
-- input { [1.5, -2.0, 4.0] } output { 3.5 -12.0 4.0 -2.0 }
-- input { empty([0]f64) } output { 0.0 1.0 -f64.inf f64.inf }
-- input { [1.0, f64.nan, 3.0] } output { f64.nan f64.nan 3.0 1.0 }

-- ==
-- entry: f32s
-- input { [0.5f32, 0.25f32] } output { 0.75f32 0.125f32 0.5f32 0.25f32 }

def main (xs: []f64): (f64, f64, f64, f64) = (f64.sum xs, f64.product xs, f64.maximum xs, f64.minimum xs)

entry f32s (xs: []f32): (f32, f32, f32, f32) = (f32.sum xs, f32.product xs, f32.maximum xs, f32.minimum xs)
