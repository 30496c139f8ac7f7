-- Lambdas with several parameters, partially applied.
-- ==
-- input { 4 } output { 11 }

def main (x: i32) =
  let f = \a b c -> a * b + c
  let g = f 2
  in g x 3
