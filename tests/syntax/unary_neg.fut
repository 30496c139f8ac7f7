-- Prefix negation on integers, floats and variables.
-- ==
-- input { 5 2.5 } output { -5 -2.5 5 -3 }

def main (x: i32) (y: f64) : (i32, f64, i32, i32) =
  (-x, -y, -(-x), -(x - 2))
