-- A unique loop parameter is updated in place in every iteration.
-- ==
-- input { 5i64 } output { [0, 1, 4, 9, 16] }

def main (n: i64) : []i32 =
  loop (a: *[]i32) = replicate n 0 for i < n do
    a with [i] = i32.i64 (i * i)
