-- An `iota` whose every use is as the input of a map or reduction is not
-- made as an array: the loop computes `start + i*step` from its own index
-- (docs/multicore.md, "Loop indices from iota"). These check the values
-- for ranges with a start and a step, empty ones, an `iota` also returned
-- (made as before), one read inside a nested map or by two nested maps,
-- and parallel reductions.
-- ==
-- entry: squares
-- input { 0i64 } output { empty([0]i64) 0i64 }
-- input { 1i64 } output { [0i64] 0i64 }
-- input { 5i64 } output { [0i64, 1, 4, 9, 16] 30i64 }
-- input { 9i64 } output { [0i64, 1, 4, 9, 16, 25, 36, 49, 64] 204i64 }

entry squares (n: i64) : ([]i64, i64) =
  (map (\i -> i * i) (iota n), i64.sum (map (\i -> i * i) (iota n)))

-- Ranges with a start and a step, in `i64` and `i32`.
-- ==
-- entry: ranges
-- input { 0i64 } output { empty([0]i64) 0i32 }
-- input { 1i64 } output { [4i64] 0i32 }
-- input { 4i64 } output { [4i64, 7i64] 6i32 }
-- input { 20i64 } output { [4i64, 7, 10, 13, 16, 19, 22] 126i32 }

entry ranges (n: i64) : ([]i64, i32) =
  let xs = map (\x -> x + 1) (3..6..<(n + 3))
  let m = i32.i64 n
  let s = i32.sum (map (\x -> x * 2) (0..3..<m))
  in (xs, s)

-- A start and a step known only at run time.
-- ==
-- entry: from_by
-- input { 2i64 5i64 12i64 } output { [4i64, 10i64, 16i64, 22i64] 18i64 }
-- input { 1i64 2i64 6i64 } output { [2i64, 4i64, 6i64, 8i64, 10i64] 10i64 }
-- input { 4i64 6i64 4i64 } output { empty([0]i64) 0i64 }

entry from_by (a: i64) (b: i64) (c: i64) : ([]i64, i64) =
  (map (* 2) (a..b..<c), i64.sum (map (\x -> x - a) (a..b..<c)))

-- An `iota` used twice (as a map's input and as a result) is made as an
-- array.
-- ==
-- entry: twice
-- input { empty([0][3]i64) } output { empty([0]i64) [0i64, 1, 2] }
-- input { [[1i64, 2, 3], [4, 5, 6]] } output { [8i64, 17i64] [0i64, 1, 2] }
-- input { [[1i64, 1, 1, 1, 1], [2, 0, 2, 0, 2], [0, 0, 0, 0, 1]] }
-- output { [10i64, 12i64, 4i64] [0i64, 1, 2, 3, 4] }

entry twice [n][m] (xss: [n][m]i64) : ([n]i64, [m]i64) =
  let is = iota m
  in (map (\row -> i64.sum (map2 (*) row is)) xss, is)

-- Inside a nested map: each row's sum of its elements times their index,
-- and a reduction over a range inside a map (row `r` sums `0..<r`).
-- ==
-- entry: nested
-- input { empty([0][3]f64) } output { empty([0]f64) empty([0]i64) }
-- input { [[1.0f64, 2.0, 3.0], [4.0, -1.0, 0.5]] } output { [8.0f64, 0.0f64] [0i64, 0i64] }
-- input { [[1.0f64, 1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.0, 2.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]] }
-- output { [15.0f64, 10.0f64, 0.0f64] [0i64, 0i64, 1i64] }

entry nested [n][m] (xss: [n][m]f64) : ([n]f64, [n]i64) =
  let is = iota m
  let dots = map (\row -> f64.sum (map2 (\x i -> x * f64.i64 i) row is)) xss
  let tri = map (\r -> i64.sum (map (\c -> if c < r then c else 0) (iota r))) (iota n)
  in (dots, tri)

-- A branching body over `iota d`, as in GMM's `q_times`: the lower
-- triangle of a row times a vector.
-- ==
-- entry: lower_triangle
-- input { [1.0f64, 2.0, 3.0, 4.0, 5.0] 3i64 } output { 6.0f64 }
-- input { [1.0f64, 2.0, 3.0, 4.0, 5.0] 0i64 } output { 0.0f64 }
-- input { [1.0f64, 2.0, 3.0, 4.0, 5.0] 9i64 } output { 15.0f64 }

entry lower_triangle [d] (xs: [d]f64) (r: i64) : f64 =
  f64.sum (map (\c -> if c < r then xs[c] else 0) (iota d))

-- GMM's `q_times`: one `iota d` gives the rows `r` of a tabulation and the
-- columns `c < r` of each row's sum.
-- ==
-- entry: triangle_rows
-- input { empty([0]f64) } output { empty([0]f64) }
-- input { [1.0f64, 2.0, 3.0, 4.0, 5.0] } output { [0.0f64, 1.0, 3.0, 6.0, 10.0] }

entry triangle_rows [d] (xs: [d]f64) : [d]f64 =
  tabulate d (\r -> f64.sum (map (\c -> if c < r then xs[c] else 0) (iota d)))

-- Parallel reductions over large ranges with a start and a step (chunked
-- loops; the `i32` sum wraps around).
-- ==
-- entry: big
-- input { 100000i64 } output { 166666666650000i64 -961600630i32 714335715i64 }
-- input { 7i64 } output { 84i64 18i32 5i64 }
-- input { 0i64 } output { 0i64 0i32 0i64 }

entry big (n: i64) : (i64, i32, i64) =
  ( i64.sum (map (\x -> x * x) (1..3..<(n + 1)))
  , i32.sum (map (* 2) (0i32..3..<i32.i64 n))
  , i64.sum (5..12..<(n + 5))
  )
