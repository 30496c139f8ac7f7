-- A name bound inside a tuple pattern parameter is not in scope in the
-- function's return type; only whole parameters can be used as sizes
-- there (Futhark issue #1646).
-- ==
-- error: S002|T001

def mk (n: i64, v: i32) : [n]i32 = replicate n v

def main (n: i64) = mk (n, 1)
