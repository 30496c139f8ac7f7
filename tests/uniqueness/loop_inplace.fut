-- A loop that fills an array in place.
-- ==
-- input { 5i64 } output { [1, 2, 4, 8, 16] }

def main (n: i64) : []i32 =
  let a = replicate n 1
  in loop a for i in 1..<n do
       a with [i] = a[i - 1] * 2
