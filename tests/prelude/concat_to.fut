-- `concat_to k xs ys` concatenates two arrays into one whose size is
-- given as `k`; it fails with a size error unless `k` is the sum of
-- the two sizes. Its derivatives are those of `++`.
-- ==
-- entry: main
-- input { [1, 2] [3, 4, 5] } output { [1, 2, 3, 4, 5] }
-- input { empty([0]i32) [7] } output { [7] }

-- ==
-- entry: wrong_size
-- input { [1, 2] [3] } error: Size mismatch

-- ==
-- entry: grad
-- input { [1.0, 2.0] [3.0] } output { [2.0, 4.0] [6.0] }

entry main (xs: []i32) (ys: []i32) = concat_to (length xs + length ys) xs ys

entry wrong_size (xs: []i32) (ys: []i32) = concat_to 4 xs ys

entry grad (xs: []f64) (ys: []f64) =
  let k = length xs + length ys
  in vjp (\(a, b) -> f64.sum (map (\x -> x * x) (concat_to k a b))) (xs, ys) 1
