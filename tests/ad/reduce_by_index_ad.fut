-- vjp through reduce_by_index with +: each value receives the adjoint of its bin.
-- ==
-- input { [1.0, 2.0, 3.0] } output { [1.0, 10.0, 1.0] }

def f (vs: [3]f64) : [2]f64 = reduce_by_index (replicate 2 0) (+) 0 [0, 1, 0] vs

def main (vs: [3]f64) = vjp f vs [1, 10]
