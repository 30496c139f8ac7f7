-- The programs of err_size_scope_local_size_param.fut,
-- err_size_scope_lambda_param.fut and err_size_compound_vs_constant.fut with
-- the sizes made equal inside the function, with a coercion, or with a
-- result of the compound size, are accepted.
-- ==
-- entry: local_fun
-- input { [1, 2] [3, 4] } output { [1, 2] [3, 4] }
-- input { [1, 2] [3] } error: Size mismatch

-- ==
-- entry: lambda_fun
-- input { [1, 2] [3, 4] } output { [1, 2] [3, 4] }

-- ==
-- entry: both
-- input { [1, 2] [3, 4, 5] } output { [1, 2, 3, 4, 5] }

entry local_fun (xs: []i32) (ys: []i32) =
  let f [n] (as: [n]i32) = unzip (zip as (ys :> [n]i32))
  in f xs

entry lambda_fun (xs: []i32) (ys: []i32) =
  (\(n: i64) (as: [n]i32) -> unzip (zip as (ys :> [n]i32))) (length xs) xs

entry both [n] [m] (xs: [n]i32) (ys: [m]i32) : [n + m]i32 = xs ++ ys
