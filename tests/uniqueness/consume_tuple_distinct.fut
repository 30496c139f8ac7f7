-- The accepted variant of `err_consume_self_aliased.fut`: the components
-- are distinct arrays.
-- ==
-- input { 3i64 } output { 0i64 }

def first (t: *([]i64, []i64)) : i64 = t.0[0] + t.1[0]

def main (n: i64) : i64 =
  let x = iota n
  in first (x, copy x)
