-- Reverse mode through an in-place update of an array that an earlier
-- statement read: the return sweep still needs the old value.
-- With s = x0 + x1 + x2, f x = [2·s·x2, 2·x1, 2·x2], so the gradient of
-- the sum of the results is [2·x2, 2·x2 + 2, 2·s + 2·x2 + 2].
-- ==
-- input { [1.0, 2.0, 3.0] } output { [6.0, 8.0, 20.0] }
-- input { [0.5, -1.0, 2.0] } output { [4.0, 6.0, 9.0] }

def f (xs: [3]f64) : [3]f64 =
  let ys = copy xs
  let s = f64.sum ys
  let zs = ys with [0] = s * ys[2]
  in map (* 2) zs

def main (xs: [3]f64) : [3]f64 = vjp f xs [1, 1, 1]
