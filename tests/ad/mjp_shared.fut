-- mjp and jmp against one vjp (jvp) per seed, on a function with a loop,
-- a map and a scan. mjp's forward sweep runs once, before the map over
-- the seeds, which holds only the return sweeps; with no seeds nothing
-- runs.
-- ==
-- entry: mjp_agrees jmp_agrees
-- input { [0.3, -1.2, 0.8, 2.0] [[1.0, 0.0, 0.0, 0.0], [0.5, -1.0, 2.0, 0.25], [0.0, 0.0, 0.0, 1.0]] }
-- output { true }
-- input { [0.3, -1.2, 0.8, 2.0] empty([0][4]f64) }
-- output { true }

-- ==
-- entry: grads
-- input { [0.3, -1.2, 0.8, 2.0] [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]] }
-- output { [[5.81068911919246, 0.0, 0.0, 0.0],
--           [8.820874806719118, 2.3935275977668287, 4.668369998436932, 1.6635546102169672]] }

def f (x: []f64) : []f64 =
  let y = loop y = copy x for _i < 3 do map (\v -> f64.sin v * 0.5 + v) y
  in map2 (*) y (scan (+) 0 y)

def close [k] [n] (a: [k][n]f64) (b: [k][n]f64) =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-12 * (1 + f64.abs x)) r s)) a b)

entry mjp_agrees [n] (x: [n]f64) (ds: [][n]f64) : bool =
  close (mjp f x ds) (map (\d -> vjp f x d) ds)

entry jmp_agrees [n] (x: [n]f64) (ds: [][n]f64) : bool =
  close (jmp f x ds) (map (\d -> jvp f x d) ds)

entry grads [n] (x: [n]f64) (ds: [][n]f64) : [][n]f64 = mjp f x ds
