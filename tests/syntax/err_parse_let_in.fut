-- A let without a bound expression is a syntax error.
-- ==
-- error: P001

def main = let x = in 1
