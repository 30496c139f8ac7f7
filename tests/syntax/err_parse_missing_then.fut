-- if without then is a syntax error.
-- ==
-- error: P001

def main (x: i32) = if x > 0 1 else 2
