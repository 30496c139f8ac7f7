-- Unique arrays inside tuples can be consumed.
-- ==
-- input { [1, 2] [3, 4] } output { [0, 2] [3, 0] }

def upd ((a, b): (*[]i32, *[]i32)) : (*[]i32, *[]i32) =
  (a with [0] = 0, b with [1] = 0)

def main (xs: *[]i32) (ys: *[]i32) : ([]i32, []i32) = upd (xs, ys)
