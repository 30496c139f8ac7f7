-- The adjoint of a matrix product: the return sweep's accumulator updates of
-- whole rows are invariant to the map over the rows of `a`, and become
-- reductions over it (acc_to_red): no accumulator update stays inside a map.
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] [[1.0, 0.0], [0.0, 1.0]] }
-- output { [[5.0, 7.0], [6.0, 8.0]] [[1.0, 3.0], [2.0, 4.0]] }
-- structure acc_to_red { Screma/UpdateAcc 0 WithAcc/UpdateAcc 2 }
-- structure ad { Screma/UpdateAcc 2 }
-- structure { Screma/UpdateAcc 0 }

def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

def main [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (c: [n][p]f64) : ([n][m]f64, [m][p]f64) =
  vjp (\(a, b) -> matmul a b) (a, b) c
