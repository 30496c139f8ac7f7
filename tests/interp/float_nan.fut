-- NaN compares unequal to everything, including itself.
-- ==
-- input { 1.0f32 } output { false false false true true }

def main (x: f32) : (bool, bool, bool, bool, bool) =
  let n = f32.nan
  in (n == n, n < x, n > x, n != n, f32.isnan (n + x))
