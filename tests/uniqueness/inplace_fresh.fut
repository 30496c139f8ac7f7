-- Arrays produced by replicate, iota and map are fresh and may be consumed.
-- ==
-- input { 3i64 } output { [5, 0, 0] [0i64, 9i64, 2i64] [1, 2, 7] }

def main (n: i64) : ([]i32, []i64, []i32) =
  let a = replicate n 0 with [0] = 5
  let b = iota n with [1] = 9
  let c = map (+ 1) (replicate n 0) with [2] = 7
  in (a, b, c with [1] = 2)
