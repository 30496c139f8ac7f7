-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of in-place
-- updates: an element (the old value's derivative is dropped), a slice, the
-- same element written twice, and an update inside a loop reading the
-- array it updates (y[i] <- y[i] * y[i - 1]).
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[0.0, 2.0, -1.5, 0.0],
--           [-6.0, 2.0, -3.0, 0.0],
--           [31.5, -10.5, 11.8125, 4.5],
--           [23.625, -7.875, 8.859375, 11.25]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [0.5, 1.1, 2.0, -0.75, 0.9] } output { true }
-- input { [1.0, 1.0, 1.0, 1.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [n]f64 =
  let y = copy x
  let y[0] = x[1] * x[2]
  let y[1:3] = map (* x[0]) x[2:4]
  let y[2] = y[2] + x[0]
  let y[2] = y[2] * y[0]
  in loop y for i in 1..<n do let y[i] = y[i] * y[i - 1] in y

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
