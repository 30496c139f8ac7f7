-- Reverse mode through a loop whose body updates its parameter in place:
-- each iteration of the return sweep works on a copy of its checkpoint.
-- The loop gives [x0·x1, x1·x2, x2·x0·x1], so the gradient of the sum of
-- the results is [x1 + x1·x2, x0 + x2 + x0·x2, x1 + x0·x1].
-- ==
-- input { [1.0, 2.0, 3.0] } output { [8.0, 7.0, 4.0] }
-- input { [2.0, 0.5, -1.0] } output { [0.0, -1.0, 1.5] }

def f (xs: [3]f64) : [3]f64 =
  loop ys = copy xs for i < 3 do
    let a = ys[i]
    in ys with [i] = a * ys[(i + 1) % 3]

def main (xs: [3]f64) : [3]f64 = vjp f xs [1, 1, 1]
