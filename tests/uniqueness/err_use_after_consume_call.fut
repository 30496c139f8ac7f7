-- Using an array after passing it to a function that consumes it.
-- ==
-- error: U001

def f (xs: *[]i32) : *[]i32 = xs with [0] = 0
def main (a: *[]i32) : i32 =
  let b = f a
  in a[1] + b[0]
