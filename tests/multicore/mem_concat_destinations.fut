-- Concatenations built in place inside a destination their consumer gives:
-- the rows of a map (each row the concatenation of two maps of the input's
-- row), a loop's next buffer (a concatenation of two maps of the previous
-- value), and a concatenation of matrices along their rows.
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0]] 2i64 }
-- output { [[2.0, 4.0, 2.0, 3.0], [6.0, 8.0, 4.0, 5.0]]
--          [2.0, 3.0, 8.0, 12.0]
--          [[1.0, 2.0], [3.0, 4.0], [-1.0, -2.0], [-3.0, -4.0]] }
-- input { empty([0][3]f64) 3i64 }
-- output { empty([0][6]f64) [3.0, 4.0, 16.0, 24.0] empty([0][3]f64) }

entry main [n][m] (xss: [n][m]f64) (k: i64) : ([n][]f64, [4]f64, [][m]f64) =
  let rows = map (\xs -> map (* 2) xs ++ map (+ 1) xs :> [m + m]f64) xss
  let v =
    loop v = [0.0, 1.0, 2.0, 3.0] for _i < k do
      let lo = map (+ 1) v[0:2]
      let hi = map (* 2) v[2:4]
      in lo ++ hi :> [4]f64
  let negs = map (map f64.neg) xss
  let both = xss ++ negs
  in (rows, v, both)
