-- A lambda reads `xs`, which is consumed before the lambda is applied.
-- ==
-- error: U001

def main (xs: *[]i32) (i: i64) : i32 =
  let f = \(j: i64) -> xs[j]
  let xs[0] = 5
  in f i
