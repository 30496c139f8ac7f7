-- reduce_by_index combines into an existing destination array.
-- ==
-- input { [10, 20, 30] [0i64, 2i64, 2i64, -1i64, 3i64] [1, 2, 3, 4, 5] }
-- output { [11, 20, 35] [10, 20, 30] }
-- input { [1, 2] empty([0]i64) empty([0]i32) } output { [1, 2] [1, 2] }

def main [k] [n] (dest: [k]i32) (is: [n]i64) (vs: [n]i32): ([k]i32, [k]i32) =
  let sums = reduce_by_index (copy dest) (+) 0 is vs
  let maxs = reduce_by_index (copy dest) i32.max i32.lowest is (map (\i -> i32.i64 i) is)
  in (sums, maxs)
