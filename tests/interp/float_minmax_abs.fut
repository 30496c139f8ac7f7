-- min, max, abs and sgn on floats and integers.
-- ==
-- input { -3.5 2.0 -7 } output { -3.5 2.0 3.5 -1.0 7 -1 1 }

def main (a: f64) (b: f64) (c: i32) : (f64, f64, f64, f64, i32, i32, i32) =
  (f64.min a b, f64.max a b, f64.abs a, f64.sgn a, i32.abs c, i32.sgn c, i32.sgn 9)
