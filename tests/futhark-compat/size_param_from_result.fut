-- A size parameter named only by the return type is determined by the
-- context of each call, as in Futhark's `rep`.
-- ==
-- input { 7 } output { [[7, 7, 7], [7, 7, 7]] [7i64, 7i64, 7i64, 7i64] }

def mat [m] [n] 't (v: t) : [m][n]t = replicate m (replicate n v)

def rep' [n] 't (x: t) : [n]t = replicate n x

def main (x: i32) : ([2][3]i32, [4]i64) =
  let a : [2][3]i32 = mat x
  let b : [4]i64 = rep' (i64.i32 x)
  in (a, b)
