-- Types of let-bound variables and lambda parameters are inferred.
-- ==
-- input { 2.0 } output { 5.0 }

def main (x: f64) =
  let f = \y -> y * y + 1
  in f x
