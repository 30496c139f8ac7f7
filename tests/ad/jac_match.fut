-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through
-- `match` on a sum type whose constructors carry differentiable payloads,
-- chosen by the input: #circle r (area pi r^2), #rect w h (area w h), and
-- #none (area 0, no dependence).
--   y[i] = area (shape i) where shape i is #circle x[i] for i % 3 = 0,
--   #rect x[i] x[(i + 1) % n] for i % 3 = 1, #none otherwise; then y[i] * x[i].
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[2.356194490192345, -0.0, 0.0, 0.0],
--           [0.0, -6.0, 2.25, 0.0],
--           [0.0, -0.0, 0.0, 0.0],
--           [0.0, -0.0, 0.0, 5.301437602932776]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0, 0.25] } output { true }

import "lib/jacobian"

type shape = #circle f64 | #rect f64 f64 | #none

def area (s: shape) : f64 =
  match s
  case #circle r -> f64.pi * r * r
  case #rect w h -> w * h
  case #none -> 0

def f [n] (x: [n]f64) : [n]f64 =
  let shape i : shape =
    if i % 3 == 0 then #circle x[i]
    else if i % 3 == 1 then #rect x[i] x[(i + 1) % n]
    else #none
  in map (\i -> area (shape i) * x[i]) (iota n)

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
