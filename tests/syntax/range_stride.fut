-- Strided ranges: the second element gives the step.
-- ==
-- input {} output { [0, 3, 6, 9] [0, 3, 6] [10, 8, 6, 4, 2, 0] [10i64, 7i64, 4i64] }

def main : ([]i32, []i32, []i32, []i64) =
  (0..3...9, 0..3..<9, 10..8...0, 10..7..>1)
