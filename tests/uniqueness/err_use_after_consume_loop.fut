-- Using an array after a loop consumed it as its initial value.
-- ==
-- error: U001

def main (a: *[]i32) : i32 =
  let b = loop (c: *[]i32) = a for i < 2 do c with [i] = 0
  in a[0] + b[0]
