-- spread k x is vs = scatter (replicate k x) is vs.
-- ==
-- input { 5i64 [4i64, 0i64, 9i64] [1.5, 2.5, 3.5] } output { [2.5, -1.0, -1.0, -1.0, 1.5] }
-- input { 0i64 [0i64] [1.0] } output { empty([0]f64) }
-- input { 2i64 empty([0]i64) empty([0]f64) } output { [-1.0, -1.0] }

def main [n] (k: i64) (is: [n]i64) (vs: [n]f64): []f64 = spread k (-1.0) is vs
