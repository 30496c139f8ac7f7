-- A size parameter that occurs only inside a size expression (`[n+1]`) can be
-- inferred when the argument's size has that form (`iota (k+1)` gives n = k), but
-- not when the argument has an unknown (existential) size. Futhark rejects the
-- second call ("Cannot apply"); today `fut check` accepts it and the interpreter
-- later fails with "unknown or consumed variable n".
-- ==
-- error: S00[123]|Cannot apply

def pred_len [n] (_: [n+1]i64) : i64 = n

def grow (k: i64) = let j = k + 1 in iota (j + 1)

entry main (k: i64) = pred_len (iota (k + 1)) + pred_len (grow k)
