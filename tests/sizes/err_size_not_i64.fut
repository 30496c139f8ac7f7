-- A size must be of type i64.
-- ==
-- error: S004

def main (n: i32) (xs: [n]f32) : f32 = xs[0]
