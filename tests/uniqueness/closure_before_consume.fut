-- The accepted variant of `err_closure_after_consume.fut`: the lambda is
-- applied before `xs` is consumed.
-- ==
-- input { [1, 2, 3] 2i64 } output { 8 }

def main (xs: *[]i32) (i: i64) : i32 =
  let f = \(j: i64) -> xs[j]
  let v = f i
  let xs[0] = 5
  in v + xs[0]
