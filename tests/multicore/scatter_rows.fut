-- Parallel scatter of rows: each iteration writes its row into the
-- destination in place. Negative and too-large indices are ignored;
-- repeated indices write equal rows (the only repetition Futhark allows).
-- ==
-- entry: computed
-- input { 5i64 12i64 3i64 }
-- output { [[0.0f64, 1.0f64, 2.0f64], [10.0f64, 11.0f64, 12.0f64], [20.0f64, 21.0f64, 22.0f64], [-1.0f64, -1.0f64, -1.0f64], [40.0f64, 41.0f64, 42.0f64]] }
-- input { 5i64 0i64 3i64 }
-- output { [[-1.0f64, -1.0f64, -1.0f64], [-1.0f64, -1.0f64, -1.0f64], [-1.0f64, -1.0f64, -1.0f64], [-1.0f64, -1.0f64, -1.0f64], [-1.0f64, -1.0f64, -1.0f64]] }
-- input { 3i64 5i64 0i64 }
-- output { empty([3][0]f64) }
-- input { 0i64 5i64 2i64 }
-- output { empty([0][2]f64) }

-- Iteration `i` writes row `(5 * i) % (n + 3) - 1`: -1, 4, 1, 6, 3, 0, 5,
-- 2, -1, 4, 1, 6 for `n = 5`, except row 3, sent to `-n` instead. Rows 1
-- and 4 are written twice, with equal rows; -1, -5, 5 and 6 are ignored.
entry computed (n: i64) (k: i64) (m: i64) : [n][m]f64 =
  let ix i = (5 * i) % (n + 3) - 1
  let is = map (\i -> if ix i == 3 then -n else ix i) (iota k)
  let rows = map (\i -> map (\j -> f64.i64 (ix i * 10 + j)) (iota m)) (iota k)
  in scatter (replicate n (replicate m (-1))) is rows

-- Rows passed on unchanged (the scatter's map computes nothing): every
-- index out of bounds, or some, or none.
-- ==
-- entry: passed
-- input { [-1i64, 3i64, 7i64, -100i64] [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32], [7i32, 8i32]] }
-- output { [[0i32, 0i32], [0i32, 0i32], [0i32, 0i32]] }
-- input { [2i64, -1i64, 0i64, 2i64] [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32], [1i32, 2i32]] }
-- output { [[5i32, 6i32], [0i32, 0i32], [1i32, 2i32]] }
-- input { empty([0]i64) empty([0][2]i32) }
-- output { [[0i32, 0i32], [0i32, 0i32], [0i32, 0i32]] }

entry passed [k] (is: [k]i64) (rows: [k][2]i32) : [3][2]i32 =
  scatter (replicate 3 (replicate 2 0)) is rows

-- Rows of rank 2, read from a transposed array (strided rows).
-- ==
-- entry: planes
-- input { [1i64, 5i64, 0i64] [[[1i64, 2i64], [3i64, 4i64]], [[5i64, 6i64], [7i64, 8i64]], [[9i64, 10i64], [11i64, 12i64]]] }
-- output { [[[9i64, 11i64], [10i64, 12i64]], [[1i64, 3i64], [2i64, 4i64]]] }

entry planes [k] (is: [k]i64) (xs: [k][2][2]i64) : [2][2][2]i64 =
  scatter (replicate 2 (replicate 2 (replicate 2 0))) is (map transpose xs)

-- A scatter of rows in each iteration of a map: the map is the parallel
-- loop, the scatters inside it sequential.
-- ==
-- entry: nested
-- input { 3i64 4i64 }
-- output { [[[0i64, 0i64], [1i64, 1i64], [2i64, 2i64]], [[-1i64, -1i64], [1i64, 1i64], [2i64, 3i64]], [[-1i64, -1i64], [-1i64, -1i64], [2i64, 2i64]]] }

entry nested (n: i64) (k: i64) : [n][n][2]i64 =
  map (\r ->
         let is = map (\i -> if i < r then -1 else i) (iota k)
         let rows = map (\i -> [i, i * (r + 1) - r * r]) (iota k)
         in scatter (replicate n (replicate 2 (-1))) is rows)
      (iota n)

-- Many iterations (several chunks on several threads): row `j` of the
-- result is `[0, j, 2j, …, (m-1)j]` when some iteration wrote it, -1s
-- otherwise; indices run from -100 to `n + 99`, each repeated many times.
-- The results: the sum of the elements and the number written.
-- ==
-- entry: large
-- input { 1000i64 200000i64 8i64 }
-- output { 13986000i64 8000i64 }
-- input { 1000i64 200000i64 0i64 }
-- output { 0i64 0i64 }

entry large (n: i64) (k: i64) (m: i64) : (i64, i64) =
  let is = map (\i -> (i * 7919) % (n + 200) - 100) (iota k)
  let rows = map (\j -> map (\c -> j * c) (iota m)) is
  let r = scatter (replicate n (replicate m (-1))) is rows
  in (i64.sum (map i64.sum r), i64.sum (map (\row -> i64.sum (map (\x -> i64.bool (x >= 0)) row)) r))

-- Rows of an array literal in a sequential loop: few constant-sized rows,
-- left to the sequential loop.
-- ==
-- entry: literal_rows
-- input { 10i64 } output { [[8i64, 8i64, 8i64], [9i64, 9i64, 9i64], [8i64, 7i64, 7i64], [9i64, 8i64, 8i64], [10i64, 9i64, 9i64], [5i64, 5i64, 5i64], [6i64, 6i64, 6i64], [7i64, 7i64, 7i64]] }

entry literal_rows (n: i64) : [8][3]i64 =
  loop d = replicate 8 (replicate 3 0i64) for t < n do
    scatter d [t % 8, (t + 3) % 8, -1] [[t, t, t], [t + 1, t, t], [9, 9, 9]]
