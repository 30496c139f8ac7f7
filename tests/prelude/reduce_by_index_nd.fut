-- Two- and three-dimensional reduce_by_index; pairs/triples with any
-- component out of range are ignored.
-- ==
-- entry: two
-- input { [[0, 0, 0], [0, 0, 0]] [0i64, 1i64, 1i64, 0i64, 2i64, 1i64] [2i64, 0i64, 0i64, 3i64, 0i64, -1i64] [1, 2, 3, 4, 5, 6] }
-- output { [[0, 0, 1], [5, 0, 0]] }

-- ==
-- entry: three
-- input { [[[1, 1], [1, 1]], [[1, 1], [1, 1]]] [1i64, 0i64, 1i64, 2i64] [0i64, 1i64, 0i64, 0i64] [1i64, 1i64, 1i64, 0i64] [5, 7, 2, 9] }
-- output { [[[1, 1], [1, 7]], [[1, 10], [1, 1]]] }

-- ==
-- entry: hist_max_2d
-- input { [0i64, 0i64, 1i64] [1i64, 1i64, 0i64] [3.0, 9.0, -2.0] }
-- output { [[-1.0, 9.0], [-1.0, -1.0]] }

entry two [k] [m] [n] (dest: [k][m]i32) (is: [n]i64) (js: [n]i64) (vs: [n]i32): [k][m]i32 =
  reduce_by_index_2d (copy dest) (+) 0 (zip is js) vs

entry three [k] [m] [l] [n] (dest: [k][m][l]i32) (is: [n]i64) (js: [n]i64) (hs: [n]i64) (vs: [n]i32): [k][m][l]i32 =
  reduce_by_index_3d (copy dest) (*) 1 (zip3 is js hs) vs

entry hist_max_2d [n] (is: [n]i64) (js: [n]i64) (vs: [n]f64): [2][2]f64 =
  reduce_by_index_2d (replicate 2 (replicate 2 (-1.0))) f64.max (-f64.inf) (zip is js) vs
