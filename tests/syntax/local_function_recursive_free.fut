-- Local functions can call earlier local functions and take several parameters.
-- ==
-- input { 2 5 } output { 29 }

def main (a: i32) (b: i32) =
  let sq (x: i32) = x * x
  let sumsq (x: i32) (y: i32) = sq x + sq y
  in sumsq a b
