-- hist and reduce_by_index on other element types, including arrays.
-- ==
-- entry: u64_or
-- input { [0i64, 1i64, 0i64] [1u64, 2u64, 4u64] } output { [5u64, 2u64] }

-- ==
-- entry: f32_sum
-- input { [2i64, 2i64, -5i64] [0.5f32, 0.25f32, 100.0f32] } output { [0.0f32, 0.0f32, 0.75f32] }

-- ==
-- entry: rows
-- input { [1i64, 1i64, 0i64] [[1, 2], [3, 4], [5, 6]] } output { [[5, 6], [4, 6]] }

entry u64_or [n] (is: [n]i64) (vs: [n]u64): []u64 = hist (|) 0 2 is vs

entry f32_sum [n] (is: [n]i64) (vs: [n]f32): []f32 = hist (+) 0 3 is vs

entry rows [n] (is: [n]i64) (vs: [n][2]i32): [2][2]i32 =
  reduce_by_index (replicate 2 (replicate 2 0)) (map2 (+)) [0, 0] is vs
