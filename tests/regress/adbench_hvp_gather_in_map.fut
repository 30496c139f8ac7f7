-- A Hessian-vector product (jvp of a vjp) of a function that reads its argument at
-- computed indices inside a map. The reverse pass turns those reads into
-- accumulator updates (with_acc/update_acc), which the forward pass did not
-- differentiate, so `fut test --backend=ir` stopped with "jvp is not expanded".
-- Found with the ADBench GMM objective (the strictly-lower entries of Q read by
-- index in a map). Here f(x) = sum_i x[i] x[i+1] (cyclic), so (H v)[j] =
-- v[j+1] + v[j-1]. Runs on the IR backend since forward mode has rules for
-- accumulators (compiler/ad/src/fwd_acc.rs).
-- ==
-- input { [1.0, 2.0, 0.5, 3.0] [1.0, 0.0, 2.0, -1.0] }
-- output { [-1.0, 3.0, -1.0, 3.0] }

def f [n] (xs: [n]f64) : f64 = f64.sum (map (\i -> xs[i] * xs[(i + 1) % n]) (iota n))

def main [n] (xs: [n]f64) (v: [n]f64) : [n]f64 =
  jvp (\p -> vjp f p 1) xs v
