-- ++ and concat join arrays.
-- ==
-- input { [1, 2] [3] } output { [1, 2, 3] [3, 1, 2] [[1, 2], [3, 4]] }

def main (a: []i32) (b: []i32) : ([]i32, []i32, [][]i32) =
  (a ++ b, concat b a, [[1, 2]] ++ [[3, 4]])
