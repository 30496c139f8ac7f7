-- A type abbreviation mentioning a size name that is not bound.
-- ==
-- error: S002

type vec = [n]f64
def main (x: f64) = x
