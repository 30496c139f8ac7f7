-- scatter writes values to positions; out-of-bounds indices are ignored.
-- ==
-- input { [0, 0, 0, 0] [1i64, 3i64] [10, 30] } output { [0, 10, 0, 30] }
-- input { [0, 0, 0] [-1i64, 3i64, 100i64, 2i64] [1, 2, 3, 4] } output { [0, 0, 4] }
-- input { [7, 8] empty([0]i64) empty([0]i32) } output { [7, 8] }
-- input { empty([0]i32) [0i64] [5] } output { empty([0]i32) }

def main [k] [n] (dest: [k]i32) (is: [n]i64) (vs: [n]i32): [k]i32 =
  scatter (copy dest) is vs
