-- Reverse mode through an `if` whose branch updates an array bound before
-- it: the return sweep runs the branch again on a fresh copy.
-- With b, f x = [x0, x0·x2, x2] and the gradient of the sum of the results
-- is [1 + x2, 0, x0 + 1]; without b it is [1, 1, 1].
-- ==
-- input { true [1.0, 2.0, 3.0] } output { [4.0, 0.0, 2.0] }
-- input { false [1.0, 2.0, 3.0] } output { [1.0, 1.0, 1.0] }

def f (b: bool) (xs: [3]f64) : [3]f64 =
  let ys = copy xs
  in if b then ys with [1] = ys[0] * ys[2] else ys

def main (b: bool) (xs: [3]f64) : [3]f64 = vjp (f b) xs [1, 1, 1]
