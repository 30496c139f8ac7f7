-- A uniqueness mark `*` on a parameter of non-array type has no effect;
-- Futhark warns about it.
-- ==
-- warning: effect

def main (n: *i64) : i64 = n + 1
