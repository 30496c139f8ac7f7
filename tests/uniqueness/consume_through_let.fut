-- An alias created by let is consumed together with the original.
-- ==
-- input { [1, 2, 3] } output { [1, 9, 3] }

def main (xs: *[]i32) : *[]i32 =
  let ys = xs
  in ys with [1] = 9
