-- Concatenations whose operands are written straight into the concatenation's
-- block: rows of a map flattened (rows built by a concatenation of their own and
-- coerced to a size, so the map learns it from its first row), a second map,
-- and an iota; the values must be those of separate arrays copied together.
-- ==
-- input { [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 10.0, 2.0, 4.0, 10.0, 3.0, 6.0, 10.0, 1.0, 4.0, 9.0, 0.0, 1.0] }
-- input { empty([0]f64) }
-- output { [0.0, 1.0] }

def row (x: f64) : [3]f64 =
  [x] ++ [2 * x] ++ [10] :> [3]f64

entry main [p] (w: [p]f64) : []f64 =
  let blocks = map row w
  let squares = map (\x -> x * x) w
  let extra = map f64.i64 (iota 2)
  in flatten blocks ++ squares ++ extra
