-- scatter_2d and scatter_3d; out-of-range index tuples are ignored.
-- ==
-- entry: two
-- input { [[0, 0], [0, 0], [0, 0]] [0i64, 2i64, 1i64, 3i64] [1i64, 0i64, -1i64, 0i64] [1, 2, 3, 4] }
-- output { [[0, 1], [0, 0], [2, 0]] }

-- ==
-- entry: three
-- input { [1i64, 0i64, 0i64] [0i64, 1i64, 0i64] [1i64, 0i64, 2i64] [5, 6, 7] }
-- output { [[[0, 0], [6, 0]], [[0, 5], [0, 0]]] }

entry two [k] [m] [n] (dest: [k][m]i32) (is: [n]i64) (js: [n]i64) (vs: [n]i32): [k][m]i32 =
  scatter_2d (copy dest) (zip is js) vs

entry three [n] (is: [n]i64) (js: [n]i64) (hs: [n]i64) (vs: [n]i32): [2][2][2]i32 =
  scatter_3d (replicate 2 (replicate 2 (replicate 2 0))) (zip3 is js hs) vs
