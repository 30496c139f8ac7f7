-- The adjoint of a gather inside a map: an accumulator for the array read,
-- updated at the index each iteration reads (one update per read, no array
-- of zeros per iteration).
-- ==
-- input { [2i64, 0i64, 2i64] [1.0, 2.0, 3.0] [1.0, 10.0, 100.0] }
-- output { [20.0, 0.0, 202.0] }
-- structure { WithAcc 1 Screma/UpdateAcc 1 Screma/Replicate 0 Screma/Update 0 }

def main [n][m] (is: [m]i64) (xs: [n]f64) (ys: [m]f64) : [n]f64 =
  vjp (\xs -> map (\i -> xs[i] * 2) is) xs ys
