-- Slice updates: `a with [i:j] = vs`.
-- ==
-- input { [1, 2, 3, 4, 5] } output { [1, 0, 0, 4, 5] [9, 2, 9, 4, 9] }

def main (xs: []i32) : ([]i32, []i32) =
  let a = copy xs with [1:3] = [0, 0]
  let b = copy xs with [::2] = [9, 9, 9]
  in (a, b)
