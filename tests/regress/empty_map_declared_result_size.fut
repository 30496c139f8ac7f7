-- A map with no iterations over calls of functions whose declared result
-- sizes are expressions of their parameters (`[1]f64`, `[5 + n]f64`,
-- `[2 * n]f64` in a tuple). The interpreter knows those sizes without
-- running a call, so `transpose` of the empty map has 1, 5 + n or 2 * n
-- rows. The IR pipeline used to take the row size from the first row,
-- 0 when there is none; it now computes the declared size once before
-- the map.
-- ==
-- entry: one
-- input { 0i64 2.0 } output { empty([1][0]f64) }
-- input { 2i64 2.0 } output { [[2.0, 2.0]] }

-- ==
-- entry: five_plus_n
-- input { 0i64 [1.0, 2.0] } output { empty([7][0]f64) }
-- input { 1i64 [1.0, 2.0] } output { [[1.0], [2.0], [3.0], [4.0], [5.0], [1.0], [2.0]] }

-- ==
-- entry: jvp_rows
-- input { 0i64 [1.0, 2.0] } output { empty([7][0]f64) }
-- input { 1i64 [1.0, 2.0] } output { [[0.0], [0.0], [0.0], [0.0], [0.0], [1.0], [2.0]] }

-- ==
-- entry: pair
-- input { 0i64 [1.0, 2.0, 3.0] } output { empty([6][0]f64) 0i64 }
-- input { 2i64 [1.0, 2.0] } output { [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [4.0, 4.0]] 8i64 }

def g (x: f64) : [1]f64 = [x]

def f [n] (x: [n]f64) : [5 + n]f64 = ([1, 2, 3, 4, 5] ++ x) :> [5 + n]f64

def twice [n] (x: [n]f64) : ([2 * n]f64, i64) =
  ((x ++ map (* 2) x) :> [2 * n]f64, 2 * n)

entry one (k: i64) (x: f64) : [][]f64 = transpose (map (\_ -> g x) (iota k))

entry five_plus_n [n] (k: i64) (x: [n]f64) : [][]f64 =
  transpose (map (\_ -> f x) (iota k))

entry jvp_rows [n] (k: i64) (x: [n]f64) : [][]f64 =
  transpose (map (\_ -> jvp f x x) (iota k))

entry pair [n] (k: i64) (x: [n]f64) : ([][]f64, i64) =
  let (ys, ls) = unzip (map (\_ -> twice x) (iota k))
  in (transpose ys, i64.sum ls)
