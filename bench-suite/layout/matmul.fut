-- Benchmarks of transposed layouts (docs/multicore.md, "Transposed
-- layouts"): a matrix product, whose innermost loop reads a column of its
-- second operand, in the `transpose` form and the indexed form, and column
-- sums, which read each element once. Compare `fut bench
-- --backend=multicore` with `FUT_LAYOUT=off` (no copies), unset (copies
-- where they pay) and `always` (copies wherever a read is strided).
-- ==
-- entry: matmul matmul_indexed
-- input { [[1.0, 2.0], [3.0, 4.0]] [[1.0, 0.0], [1.0, 1.0]] }
-- output { [[3.0, 2.0], [7.0, 4.0]] }
-- compiled random input { [500][500]f64 [500][500]f64 }
-- compiled random input { [1000][1000]f64 [1000][1000]f64 }

-- | `a` times `b`, the rows of `a` against the columns of `b`.
entry matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

-- | The same product with indices.
entry matmul_indexed [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\i -> map (\j -> f64.sum (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)

-- ==
-- entry: column_sums
-- input { [[1.0, 2.0], [3.0, 4.0]] }
-- output { [4.0, 6.0] }
-- compiled random input { [1000][1000]f64 }
-- compiled random input { [4000][4000]f64 }

-- | The sum of each column.
entry column_sums [n][m] (xss: [n][m]f64) : [m]f64 =
  map (\j -> f64.sum (map (\i -> xss[i, j]) (iota n))) (iota m)
