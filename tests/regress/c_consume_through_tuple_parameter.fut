-- Passing an array as the unique component of a tuple argument consumes
-- it, exactly like passing it to a unique array parameter; using the
-- array afterwards is a use after consumption (U001).
-- ==
-- error: U001|consumed

def take_pair (p: (i64, *[]i64)) : i64 = p.0 + length p.1

def main (n: i64) : i64 =
  let a = iota n
  let r = take_pair (1, a)
  in r + a[0]
