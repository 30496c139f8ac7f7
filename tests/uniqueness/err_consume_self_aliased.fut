-- Both components of a consumed tuple are the same array.
-- ==
-- error: U005

def first (t: *([]i64, []i64)) : i64 = t.0[0] + t.1[0]

def main (n: i64) : i64 =
  let x = iota n
  in first (x, x)
