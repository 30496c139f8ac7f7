-- Every size parameter of a type abbreviation must be used in its
-- definition; `[n]` below is never used, so the abbreviation is rejected.
-- ==
-- error: T011|S002|[Ss]ize parameter

type vec [n] = f64

def main (x: f64) : vec [3] = x
