-- Found by `fut dev --fuzz` (the IR backend): reverse mode through a `for` loop
-- with a nested loop whose bound is an i32 constant gave an invalid program
-- ("`d_5` is used before it is bound"): the inner loop's bound was converted to
-- i64 inside the outer body, out of scope for the outer loop's checkpoints of the
-- inner loop's checkpoints. A constant bound now stays a constant.
-- ==
-- input { 1.0 }
-- output { 0.030028318575426153 0.030028318575426153 }
-- input { -0.5 }
-- output { 0.052812852159881796 0.052812852159881796 }

def f (x: f64) : f64 =
  loop acc1 = x for i < 2 do 0.5 * f64.sin (loop acc4 = acc1 for j < 1 do 0.5 * f64.sin acc4)

entry main (x: f64) : (f64, f64) = (vjp f x 1, jvp f x 1)
