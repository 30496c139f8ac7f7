-- Transposed layouts where no copy pays (docs/multicore.md, "Transposed
-- layouts"): each column summed once, rows read along their contiguous
-- dimension, a transposed array read in the parallel map itself. The
-- multicore backend leaves these as views; results are the reference
-- interpreter's.
-- ==
-- entry: column_sums column_sums_indexed
-- input { [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] }
-- output { [5.0, 7.0, 9.0] }
-- input { empty([0][3]f64) }
-- output { [0.0, 0.0, 0.0] }
-- input { empty([2][0]f64) }
-- output { empty([0]f64) }

-- | The sum of each column, as a map over `transpose xss`.
entry column_sums [n][m] (xss: [n][m]f64) : [m]f64 =
  map f64.sum (transpose xss)

-- | The same with indices.
entry column_sums_indexed [n][m] (xss: [n][m]f64) : [m]f64 =
  map (\j -> f64.sum (map (\i -> xss[i, j]) (iota n))) (iota m)

-- ==
-- entry: gram
-- input { [[1.0, 2.0], [3.0, 4.0]] }
-- output { [[5.0, 11.0], [11.0, 25.0]] }
-- input { empty([0][2]f64) }
-- output { empty([0][0]f64) }

-- | `xss` times its transpose: both operands are read along their rows.
entry gram [n][m] (xss: [n][m]f64) : [n][n]f64 =
  map (\a -> map (\b -> f64.sum (map2 (*) a b)) xss) xss

-- ==
-- entry: transposed_rows
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] }
-- output { [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]] }

-- | Each row of the transpose doubled, then halved: one read per element.
entry transposed_rows [n][m] (xss: [n][m]f64) : [m][n]f64 =
  map (\col -> map (\x -> (x * 2.0) / 2.0) col) (transpose xss)
