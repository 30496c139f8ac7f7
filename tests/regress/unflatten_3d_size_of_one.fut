-- `unflatten_3d` into [2][k][1] with a local `k`.  The argument's size
-- `2*k*1` is folded to `2*k`, and the checker used to match it part by part
-- against the parameter's `n*m*l`, taking `l` to be `k`; the interpreter
-- then expected 2*k*k elements ("expected size 8 for n*m*l" for 4).  Sizes
-- of different structure are no longer matched part by part, so the
-- annotation fixes n = 2, m = k and l = 1.  [2][1][k] and [2][k][3] worked.
-- ==
-- entry: k_one
-- input { [1.0, 2.0, 3.0, 4.0] } output { [[[1.0], [2.0]], [[3.0], [4.0]]] }
-- input { empty([0]f64) } output { empty([2][0][1]f64) }

-- ==
-- entry: one_k
-- input { [1.0, 2.0, 3.0, 4.0] } output { [[[1.0, 2.0]], [[3.0, 4.0]]] }

-- ==
-- entry: k_three
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0] }
-- output { [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]] }

entry k_one (x: []f64) : [][][]f64 =
  let k = length x / 2
  let c : [2][k][1]f64 = unflatten_3d (x :> [2 * k * 1]f64)
  in c

entry one_k (x: []f64) : [][][]f64 =
  let k = length x / 2
  let c : [2][1][k]f64 = unflatten_3d (x :> [2 * 1 * k]f64)
  in c

entry k_three (x: []f64) : [][][]f64 =
  let k = length x / 6
  let c : [2][k][3]f64 = unflatten_3d (x :> [2 * k * 3]f64)
  in c
