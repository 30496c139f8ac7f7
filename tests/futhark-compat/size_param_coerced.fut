-- The programs of err_size_param_vs_constant.fut and err_size_params_differ.fut
-- with a size coercion, and with equal size parameters, are accepted; the
-- coercion is checked at run time.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [1, 2] } output { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [1, 2] [1, 2] }
-- input { [1, 2] [1, 2] } error: Size mismatch

def f [n] (xs: [n]i32) = \(ys: [n]i32) -> zip xs ys

def main [n] [m] (xs: [n]i32) (ys: [m]i32) : ([10]i32, []i32, []i32) =
  let (a, b) = unzip (f ys ys)
  in (xs :> [10]i32, a, b)
