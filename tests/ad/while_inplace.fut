-- While loops whose body updates an array parameter in place, under vjp:
-- with a bound (the guarded for loop restores copies of its checkpoints)
-- and without (the inspector runs on a copy of the array it consumes).
-- The loop multiplies ys[0] by ys[1] while ys[0] < 10. From [1, 2, 3] it
-- runs 4 times: ys = [x0·x1⁴, x1, x2] = [16, 2, 3], and the gradient of
-- the sum is [x1⁴, 4·x0·x1³ + 1, 1] = [16, 33, 1]. From [20, 2, 3] it does
-- not run: [1, 1, 1].
-- ==
-- input { [1.0, 2.0, 3.0] } output { [16.0, 2.0, 3.0] [16.0, 33.0, 1.0] [16.0, 33.0, 1.0] }
-- input { [20.0, 2.0, 3.0] } output { [20.0, 2.0, 3.0] [1.0, 1.0, 1.0] [1.0, 1.0, 1.0] }

def step (ys: *[3]f64) : *[3]f64 = ys with [0] = ys[0] * ys[1]

def bounded (xs: [3]f64) : [3]f64 =
  #[bound(20)] loop ys = copy xs while ys[0] < 10 do step ys

def counted (xs: [3]f64) : [3]f64 =
  loop ys = copy xs while ys[0] < 10 do step ys

def main (xs: [3]f64) : ([3]f64, [3]f64, [3]f64) =
  (counted xs, vjp bounded xs [1, 1, 1], vjp counted xs [1, 1, 1])
