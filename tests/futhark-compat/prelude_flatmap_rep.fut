-- `flatmap` describes the concatenation of arrays of different lengths as
-- shape, flags, offsets, data and values; `rep` takes its size from the
-- context of the call.
-- ==
-- entry: expand
-- input { [2i64, 0i64, 3i64, 1i64] [5i32, 6i32, 7i32, 8i32] }
-- output { [2i64, 0i64, 3i64, 1i64]
--          [true, false, true, false, false, true]
--          [0i64, 2i64, 2i64, 5i64]
--          [5i32, 6i32, 7i32, 8i32, 9i32, 8i32]
--          [10i32, 12i32, 14i32, 16i32] }
-- input { [0i64, 0i64] [1i32, 2i32] }
-- output { [0i64, 0i64] empty([0]bool) [0i64, 0i64] empty([0]i32) [2i32, 4i32] }
-- input { empty([0]i64) empty([0]i32) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i32) empty([0]i32) }

-- ==
-- entry: rows
-- input { [1i64, 2i64] }
-- output { [1i64, 2i64, 2i64] [[1f32, 1f32], [2f32, 2f32], [2f32, 2f32]] }

-- ==
-- entry: reps
-- input { 7i32 }
-- output { [7i32, 7i32, 7i32] [[7i32, 7i32], [7i32, 7i32]] }

entry expand (ks: []i64) (xs: []i32) =
  flatmap (\(k, x) -> (map (\i -> x + i32.i64 i) (iota k), x * 2)) (zip ks xs)

entry rows (ks: []i64) =
  let (_, _, _, d) = flatmap' (\k -> replicate k k) ks
  in (d, map (\k -> rep (f32.i64 k)) d : [][2]f32)

entry reps (x: i32) : ([3]i32, [2][2]i32) =
  (rep x, rep (rep x))
