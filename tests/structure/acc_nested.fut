-- A gather in a map nested in a map: the inner map's return sweep updates the
-- accumulator of the outer one, passed to it, so there is one accumulator
-- (one with_acc) and one update per element read.
-- ==
-- input { [0i64, 1i64] [1.0, 2.0, 3.0] [[1.0, 10.0], [100.0, 1000.0]] }
-- output { [1.0, 110.0, 1000.0] }
-- structure { WithAcc 1 Screma/UpdateAcc 1 }

def main [n][m][k] (is: [m]i64) (xs: [n]f64) (ys: [m][k]f64) : [n]f64 =
  vjp (\xs -> map (\i -> map (\j -> xs[(i + j) % n]) (iota k)) is) xs ys
