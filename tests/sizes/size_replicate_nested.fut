-- replicate produces arrays of the requested sizes.
-- ==
-- input { 2i64 3i64 } output { [[7, 7, 7], [7, 7, 7]] 6i64 }

def main (n: i64) (m: i64) : ([][]i32, i64) =
  let a = replicate n (replicate m 7)
  in (a, length (flatten a))
