-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through
-- higher-order code: functions passed as arguments and returned, a
-- composition, an operator section closing over an input value, a local
-- function closing over one, and a partial application as a reduce operator.
--   y = map (twice (\v -> v * c)) x ++ map (compose f64.sin (+ c)) x
--       ++ [reduce (combine 0.5) 0 x]  with c = x[0] and combine k a b = a + b + k a b,
-- an associative operator (neutral 0).  An operator closing over an input
-- value is in jac_operator_free_var.fut.
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[0.75, 0.0, 0.0],
--           [-1.5, 0.25, 0.0],
--           [2.0, 0.0, 0.25],
--           [1.0806046117362795, 0.0, 0.0],
--           [0.5403023058681398, 0.5403023058681398, 0.0],
--           [-0.8011436155469337, 0.0, -0.8011436155469337],
--           [0.5, 2.5, 0.3125]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [1.5] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0] } output { true }

import "lib/jacobian"

def twice 'a (g: a -> a) (v: a) : a = g (g v)
def compose 'a 'b 'c (g: b -> c) (h: a -> b) (v: a) : c = g (h v)
def combine (c: f64) (a: f64) (b: f64) : f64 = a + b + c * a * b

def f [n] (x: [n]f64) : [2 * n + 1]f64 =
  let c = x[0]
  let scale v = v * c
  in (map (twice scale) x ++ map (compose f64.sin (+ c)) x ++ [reduce (combine 0.5) 0 x])
     :> [2 * n + 1]f64

entry jac [n] (x: [n]f64) : [2 * n + 1][n]f64 = jacobian (2 * n + 1) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 * n + 1) f x
