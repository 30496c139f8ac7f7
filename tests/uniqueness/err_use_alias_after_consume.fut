-- Using an alias of an array after the array was consumed.
-- ==
-- error: U001

def main (a: *[]i32) : i32 =
  let c = a
  let b = a with [0] = 1
  in c[0] + b[0]
