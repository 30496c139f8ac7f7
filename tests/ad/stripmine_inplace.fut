-- A strip-mined loop whose body updates its array parameter in place: the
-- guard's branch consumes the parameter, and the return sweep restores it
-- from copies of its checkpoints at every level of the nest.
-- The loop gives [x0·x1, x1·x2, x2·x0·x1] after 3 iterations (see
-- consumed_loop_param.fut), so the gradient of the sum of the results is
-- [x1 + x1·x2, x0 + x2 + x0·x2, x1 + x0·x1].
-- ==
-- input { [1.0, 2.0, 3.0] 3i64 } output { [8.0, 7.0, 4.0] [8.0, 7.0, 4.0] }
-- input { [2.0, 0.5, -1.0] 3i64 } output { [0.0, -1.0, 1.5] [0.0, -1.0, 1.5] }
-- input { [2.0, 0.5, -1.0] 0i64 } output { [1.0, 1.0, 1.0] [1.0, 1.0, 1.0] }

def body (ys: *[3]f64) (i: i64) : *[3]f64 =
  let j = i % 3
  let a = ys[j]
  in ys with [j] = a * ys[(j + 1) % 3]

def f2 (n: i64) (xs: [3]f64) : [3]f64 =
  #[stripmine(2)] loop ys = copy xs for i < n do body ys i

def f3 (n: i64) (xs: [3]f64) : [3]f64 =
  #[stripmine(3)] loop ys = copy xs for i < n do body ys i

def main (xs: [3]f64) (n: i64) : ([3]f64, [3]f64) =
  (vjp (f2 n) xs [1, 1, 1], vjp (f3 n) xs [1, 1, 1])
