-- f64 arithmetic rounds to double precision.
-- ==
-- input { 9007199254740992.0 0.1 0.2 } output { true false 0.30000000000000004 }

def main (big: f64) (a: f64) (b: f64) : (bool, bool, f64) =
  (big + 1 == big, a + b == 0.3, a + b)
