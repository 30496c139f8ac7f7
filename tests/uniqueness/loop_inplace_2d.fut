-- In-place updates of rows and elements of a matrix inside nested loops.
-- ==
-- input { 3i64 } output { [[0, 1, 2], [1, 2, 3], [2, 3, 4]] }

def main (n: i64) : [][]i32 =
  let m = replicate n (replicate n 0)
  in loop m for i < n do
       loop m for j < n do
         m with [i, j] = i32.i64 (i + j)
