-- Which sequential reductions get partial results: rows read contiguously
-- get them, columns (read with a stride) and rows of a transposed matrix
-- keep the single chain, and a blend like Hand's (`t[r, c]` over the
-- bones, strided) too. The answers are the same either way; these check
-- both lowerings over lengths around the number of partials.
-- ==
-- entry: column_sums
-- input { empty([0][3]f64) } output { [0.0f64, 0.0f64, 0.0f64] }
-- input { [[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0]] } output { [9.0f64, 12.0f64] }
-- input { [[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]] }
-- output { [25.0f64, 30.0f64] }

entry column_sums [n][m] (xss: [n][m]f64) : [m]f64 =
  map (\j -> f64.sum (map (\i -> xss[i, j]) (iota n))) (iota m)

-- Rows against columns of the transposed second operand, with and without
-- the layout pass's copy; the strided dot products keep one chain.
-- ==
-- entry: row_dots_transposed
-- input { [[1.0f64, 2.0, 3.0, 4.0, 5.0], [0.5, 0.25, 2.0, -1.0, 8.0]]
--         [[1.0f64, 1.0], [2.0, 0.0], [3.0, 1.0], [4.0, 0.0], [5.0, 1.0]] }
-- output { [55.0f64, 10.5f64] }

entry row_dots_transposed [n][m] (a: [n][m]f64) (b: [m][n]f64) : [n]f64 =
  map2 (\row col -> f64.sum (map2 (*) row col)) a (transpose b)

-- Hand's blend: per vertex, a 3 by 4 tabulation of sums over the bones of
-- the weight times a transform's element, 16 elements apart.
-- ==
-- entry: blend
-- input { [[1.0f64, 2.0, 0.5], [0.0, 1.0, 0.0]]
--         [[[1.0f64, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 2.0], [0.0, 0.0, 1.0, 3.0], [0.0, 0.0, 0.0, 1.0]],
--          [[2.0f64, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
--          [[0.0f64, -1.0, 0.0, 4.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, -2.0], [0.0, 0.0, 0.0, 1.0]]] }
-- output { [[[5.0f64, -0.5, 0.0, 3.0], [0.5, 5.0, 0.0, 2.0], [0.0, 0.0, 5.5, 2.0]],
--           [[2.0f64, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]]] }

entry blend [V][b] (weights: [V][b]f64) (transforms: [b][4][4]f64) : [V][3][4]f64 =
  map (\ws -> tabulate_2d 3 4 (\r c -> f64.sum (map2 (\w t -> w * t[r, c]) ws transforms)))
      weights
