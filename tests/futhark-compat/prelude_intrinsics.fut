-- The module `intrinsics`: accumulators threaded through a function by
-- `scatter_stream` and `hist_stream` (out-of-bounds writes ignored), and
-- strided views of a flat array.
-- ==
-- entry: scatter_acc
-- input { [0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32] }
-- output { [0i32, 0i32, 1i32, 1i32, 2i32, 2i32, 3i32] }

-- ==
-- entry: hist_acc
-- input { [10i32, 20i32, 30i32, 40i32] }
-- output { [10i32, 21i32, 32i32, 43i32] }

-- ==
-- entry: strided
-- input { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, 8i64] }
-- output { [[1i64, 3i64], [4i64, 6i64]]
--          [0i64, 1i64, 2i64, 3i64, 100i64, 5i64, 101i64, 7i64, 102i64] }
-- input { [0i64, 1i64] }
-- error: out of bounds

type~ acc 't = intrinsics.acc t

def pairs (acc: *acc ([]i32)) (i: i64) : *acc ([]i32) =
  let acc = intrinsics.acc_write acc (i * 2) (i32.i64 i)
  in intrinsics.acc_write acc (i * 2 + 1) (i32.i64 i)

entry scatter_acc (xs: *[]i32) = intrinsics.scatter_stream xs pairs (iota 4)

entry hist_acc (xs: *[]i32) =
  intrinsics.hist_stream xs (+) 0 (\(acc: *acc ([]i32)) i -> intrinsics.acc_write acc (i + 1) (i32.i64 i + 1)) (iota 4)

entry strided [n] (xs: *[n]i64) =
  let view = intrinsics.flat_index_2d xs 1 2 3 2 2
  in (view, intrinsics.flat_update_2d (copy xs) 4 4 2 [[100, 101, 102]])
