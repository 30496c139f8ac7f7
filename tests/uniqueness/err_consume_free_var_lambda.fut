-- Consuming a free variable inside a lambda.
-- ==
-- error: U002

def main (a: *[]i32) : [][]i32 =
  map (\i -> a with [i] = 0) (iota 3)
