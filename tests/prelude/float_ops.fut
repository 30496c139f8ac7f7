-- Float arithmetic through the module operators, ** and %.
-- ==
-- input { 7.5 2.0 } output { 9.5 5.5 15.0 3.75 1.5 56.25 true true }
-- input { 2.0 0.5 } output { 2.5 1.5 1.0 4.0 0.0 1.4142135623730951f64 true true }
-- input { 1.0 0.0 } output { 1.0 1.0 0.0 f64.inf f64.nan 1.0 true true }

-- ==
-- entry: f32ops
-- input { 2.0f32 10.0f32 } output { 1024.0f32 12.0f32 }

def main (x: f64) (y: f64): (f64, f64, f64, f64, f64, f64, bool, bool) =
  (x f64.+ y, x f64.- y, x f64.* y, x f64./ y, x f64.% y, x f64.** y, x f64.> y, x f64.<= y || x f64.!= y)

entry f32ops (x: f32) (y: f32): (f32, f32) = (x ** y, x + y)
