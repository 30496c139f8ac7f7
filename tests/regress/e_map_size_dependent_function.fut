-- A function whose result size is its argument (`(k: i64) -> [k]i64`) cannot be
-- mapped: every row would have a different length, so the result would be an
-- irregular array. Futhark rejects the application at type-checking time. Today
-- `fut check` accepts it and the interpreter builds a malformed [n][0] value
-- ("cannot return the result of main: shape [3][0] does not match ...").
-- ==
-- error: S00[123]|Cannot apply

def upto (k: i64) : [k]i64 = iota k

entry main (n: i64) = map upto (iota n)
