-- A partially applied function that returns a value it computed before
-- the last argument arrived returns the *same* value on every call, so
-- two results of calling it alias each other; consuming one and then
-- using the other must be rejected.
-- ==
-- error: U00[123]|consumed

def keep 'p 'q 'r (g: p -> q) (v: p) : r -> q =
  let res = g v
  in \(_: r) -> res

def fresh (v: i64) : *[2]i64 = replicate 2 v

def main (v: i64) =
  let h = keep fresh v
  let s = h true
  let t = h false
  let s[1] = 0
  in (s, t)
