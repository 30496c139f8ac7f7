-- Float reductions lowered with several partial results (sums,
-- products, minima and maxima), over lengths around the number of
-- partials: 0, 1, 3, 4, 5, 9 and a large one. The values are small
-- integers and powers of two, so every order of the operations gives the
-- same exact answer.
-- ==
-- entry: top
-- input { empty([0]f64) } output { 0.0f64 1.0f64 f64.inf -f64.inf }
-- input { [3.0f64] } output { 6.0f64 3.0f64 3.0f64 3.0f64 }
-- input { [1.0f64, -2.0, 4.0] } output { 6.0f64 -8.0f64 -2.0f64 4.0f64 }
-- input { [1.0f64, -2.0, 4.0, 0.5] } output { 7.0f64 -4.0f64 -2.0f64 4.0f64 }
-- input { [1.0f64, -2.0, 4.0, 0.5, 8.0] } output { 23.0f64 -32.0f64 -2.0f64 8.0f64 }
-- input { [1.0f64, -2.0, 4.0, 0.5, 8.0, -1.0, 2.0, 0.25, -16.0] }
-- output { -6.5f64 -256.0f64 -16.0f64 8.0f64 }

entry top (xs: []f64) : (f64, f64, f64, f64) =
  ( f64.sum (map (* 2) xs)
  , f64.product xs
  , f64.minimum xs
  , f64.maximum xs
  )

-- The inner reductions of a map: each row is a sequential loop.
-- ==
-- entry: rows
-- input { empty([2][0]f32) } output { [0.0f32, 0.0f32] [f32.inf, f32.inf] }
-- input { [[1.0f32], [2.0f32]] } output { [1.0f32, 2.0f32] [1.0f32, 2.0f32] }
-- input { [[1.0f32, 2.0, 3.0], [4.0f32, -5.0, 6.0]] }
-- output { [6.0f32, 5.0f32] [1.0f32, -5.0f32] }
-- input { [[1.0f32, 2.0, 3.0, 4.0, 5.0], [-1.0f32, 2.0, -3.0, 4.0, -5.0]] }
-- output { [15.0f32, -3.0f32] [1.0f32, -5.0f32] }

entry rows (xss: [][]f32) : ([]f32, []f32) =
  (map f32.sum xss, map f32.minimum xss)

-- A large sum, split into chunks, each chunk's loop with partials, and
-- inner sums of varying length (the guard of GMM's `q_times`).
-- ==
-- entry: large
-- input { 100003i64 } output { 5000250003.0f64 166833001.0f64 }

entry large (n: i64) : (f64, f64) =
  let tri = f64.sum (map (\r -> f64.sum (map (\c -> if c < r then 1.0 else 0.0) (iota 1000)))
                         (iota 1000))
  in (f64.sum (map f64.i64 (iota n)), tri * 334.0 + f64.i64 (n % 7))
