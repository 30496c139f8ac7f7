-- A map with no iterations over calls of a function whose declared result
-- size is an expression of its parameters (`[1]f64`, `[5 + n]f64`).
-- Internalisation gave such calls a result of unknown size, and an empty
-- map then got rows of size 0, so `transpose` of it had no rows on the
-- IR pipeline but one (or 5 + n) on the interpreter.  The call's result
-- now has the declared size, computed at the call from the arguments, and
-- a map's row size that does not depend on the element is computed
-- outside the map.
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

def g (x: f64) : [1]f64 = [x]

def f [n] (x: [n]f64) : [5 + n]f64 = ([1, 2, 3, 4, 5] ++ x) :> [5 + n]f64

entry one (k: i64) (x: f64) : [][]f64 = transpose (map (\_ -> g x) (iota k))

entry five_plus_n [n] (k: i64) (x: [n]f64) : [][]f64 =
  transpose (map (\_ -> f x) (iota k))

entry jvp_rows [n] (k: i64) (x: [n]f64) : [][]f64 =
  transpose (map (\_ -> jvp f x x) (iota k))
