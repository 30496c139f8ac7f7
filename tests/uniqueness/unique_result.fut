-- A function with a unique result returns a fresh array.
-- ==
-- input { 4i64 } output { [0, 1, 4, 9] }

def squares (n: i64) : *[]i32 = map (\i -> i32.i64 (i * i)) (iota n)

def main (n: i64) : []i32 =
  let a = squares n
  let a[0] = 0
  in a
