-- A loop whose array parameter doubles in size each iteration
-- (`loop (y: []f64) = x ... do y ++ map (* 2) y`). After two iterations
-- the sum of squares is 25 * (x0^2 + x1^2).
--
-- Reverse mode through such a loop is not supported by the compiler's AD
-- pass: its checkpoints would need rows of different sizes, so the forward
-- sweep checks that the size stays and stops with a message naming the
-- parameter (compiler/ad/tests/loops.rs). The reverse entries are tagged
-- no_ir (and no_multicore, which compiles the same IR); the interpreter
-- runs every case.
-- ==
-- entry: fwd
-- input { [1.0, 2.0] [1.0, 0.0] } output { 50.0 }
-- input { [1.0, 2.0] [0.5, 1.0] } output { 125.0 }

-- ==
-- entry: rev
-- no_ir no_multicore input { [1.0, 2.0] } output { [50.0, 100.0] }

-- ==
-- entry: rev_of_per_seed
-- no_ir no_multicore input { [1.0, 2.0] } output { [50.0, 50.0] }

def grow (x: []f64) : f64 =
  let y = loop (y: []f64) = x for _i < 2 do y ++ map (* 2) y
  in f64.sum (map (\v -> v * v) y)

entry fwd (x: []f64) (dx: []f64) = jvp grow x (sized (length x) dx)

entry rev (x: []f64) = vjp grow x 1

-- One jvp per unit seed inside a map, under vjp: the gradient of the sum
-- of the directional derivatives, sum_i 50 * x_i, is 50 in every component.
entry rev_of_per_seed [n] (x: [n]f64) : [n]f64 =
  let per_seed z = map (\i -> jvp grow z (map (\j -> f64.bool (i == j)) (iota n))) (iota n)
  in vjp (\z -> f64.sum (per_seed z)) x 1
