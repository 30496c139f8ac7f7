-- `a with [i] = v` and `a with [i, j] = v` produce updated copies.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[1, 2], [3, 9]] [[7, 7], [3, 4]] }

def main (xss: [][]i32) : ([][]i32, [][]i32) =
  let a = copy xss with [1, 1] = 9
  let b = copy xss with [0] = [7, 7]
  in (a, b)
