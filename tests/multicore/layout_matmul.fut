-- Transposed layouts (docs/multicore.md, "Transposed layouts"): a matrix
-- product reads the columns of its second operand in its innermost loop,
-- so the multicore backend gives the parallel map a row-major copy of
-- `transpose b` (or, for the indexed form, of the transposed matrix) made
-- once before it. Results must be those of the reference interpreter,
-- with empty matrices, mismatched sizes and a product inside a loop.
-- ==
-- entry: matmul matmul_indexed
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]] }
-- output { [[1.0, 2.0, 8.0], [3.0, 4.0, 18.0], [5.0, 6.0, 28.0]] }
-- input { [[2.0]] [[3.0, 4.0]] }
-- output { [[6.0, 8.0]] }
-- input { [[1.0, 2.0]] empty([2][0]f64) }
-- output { empty([1][0]f64) }
-- input { [[1.0, 2.0]] [[1.0, 2.0]] }
-- error: .
-- compiled random input { [17][33]f64 [33][9]f64 }

-- ==
-- entry: matmul
-- input { empty([0][2]f64) [[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]] }
-- output { empty([0][3]f64) }

-- | `a` times `b`, the rows of `a` against the columns of `b`.
entry matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

-- | The same product with indices: `b[k, j]` walks down a column.
entry matmul_indexed [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\i -> map (\j -> f64.sum (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)

-- ==
-- entry: matpow
-- input { [[1.0, 1.0], [1.0, 0.0]] 4i64 }
-- output { [[8.0, 5.0], [5.0, 3.0]] }
-- input { [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]] 2i64 }
-- output { [[8.0, 0.0, 0.0], [0.0, 1.0, 0.0], [7.0, 0.0, 1.0]] }
-- input { [[2.0]] 0i64 }
-- output { [[2.0]] }

-- | `a` to the power `k + 1`: a product with the same transposed operand
-- in every iteration of a sequential loop.
entry matpow [n] (a: [n][n]f64) (k: i64) : [n][n]f64 =
  let at = transpose a
  in loop x = a for _i < k do
       map (\row -> map (\col -> f64.sum (map2 (*) row col)) at) x
