-- jmp nested with other derivatives: jmp under vjp and under jvp (the
-- derivative of a function that computes tangents of many seeds), jmp of
-- a function containing jvp, jmp of a gradient (the Hessian times many
-- seeds, reverse mode inside), jmp inside a map over points, and jmp of
-- jmp.  Each is checked against the same computation with one jvp per
-- seed (a seed read inside the map, which the compiler expands seed by
-- seed).  `hess` at x = [1, 2, 3] is the Hessian of g, [[2, 4, 3], [4, 3,
-- 2], [3, 2, 4]] (g as in nested_jvp_vjp.fut), times the seeds.
-- ==
-- entry: hess
-- input { [1.0, 2.0, 3.0] [[1.0, 0.0, 0.0], [0.0, 1.0, -1.0]] }
-- output { [[2.0, 4.0, 3.0], [1.0, 1.0, -2.0]] }

-- ==
-- entry: under_jvp of_jvp of_grad in_map of_jmp
-- input { [1.0, 2.0, 3.0] [[1.0, 0.0, 0.0], [0.0, 1.0, -1.0]] } output { true }
-- input { [0.3, -1.2, 0.8] [[0.5, -1.0, 2.0], [1.0, 1.0, 1.0], [-0.75, 0.0, 1.5]] } output { true }
-- input { [1.5, 0.4, -2.0] empty([0][3]f64) } output { true }

-- With no seeds (the last case), vjp of jmp differentiates a map over no
-- seeds whose rows' size is computed inside it.
-- ==
-- entry: under_vjp under_vjp_affine
-- input { [1.0, 2.0, 3.0] [[1.0, 0.0, 0.0], [0.0, 1.0, -1.0]] } output { true }
-- input { [0.3, -1.2, 0.8] [[0.5, -1.0, 2.0], [1.0, 1.0, 1.0], [-0.75, 0.0, 1.5]] } output { true }
-- input { [1.5, 0.4, -2.0] empty([0][3]f64) } output { true }

def close [k] [n] (a: [k][n]f64) (b: [k][n]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-10 * (1 + f64.abs x + f64.abs y)) r s)) a b)

def close1 [n] (a: [n]f64) (b: [n]f64) : bool = close [a] [b]

-- One jvp per seed: the seed is read inside the map, so the map keeps one
-- jvp per seed.
def per_seed [k] [n] [m] (f: [n]f64 -> [m]f64) (x: [n]f64) (ds: [k][n]f64) : [k][m]f64 =
  map (\i -> jvp f x ds[i]) (iota k)

-- A loop, a map and a scan.
def f (x: [3]f64) : [3]f64 =
  let y = loop y = copy x for i < 3 do map (\v -> f64.sin v * 0.5 + v * f64.i32 i) y
  in map2 (*) y (scan (+) 0 y)

-- The Hessian of g is [[x0 + 1, 1 + x2, 1 + x1], ...] at x = [1, 2, 3]:
-- g = sum x^3 / 6 + (sum x)^2 / 2 + x0 x1 x2, the product by a loop.
def g (x: [3]f64) : f64 =
  let cubes = reduce (+) 0 (map (\v -> v * v * v / 6) x)
  let s = f64.sum x
  let p = loop p = 1 for i < 3 do p * x[i]
  in cubes + s * s / 2 + p

def grad (x: [3]f64) : [3]f64 = vjp g x 1

-- The weighted sum of the tangents of every seed.
def weigh [k] (ts: [k][3]f64) : f64 =
  f64.sum (map2 (\i t -> f64.sum (map2 (\j v -> v * f64.i64 (i + j + 1)) (iota 3) t)) (iota k) ts)

entry hess (x: [3]f64) (ds: [][3]f64) : [][3]f64 = jmp grad x ds

-- Under vjp, against forward mode over each unit vector (jvp of jmp, which
-- under_jvp checks against one jvp per seed).
def rev_fwd [k] (f: [3]f64 -> [3]f64) (x: [3]f64) (ds: [k][3]f64) : bool =
  let h z = weigh (jmp f z ds)
  let unit j = map (\i -> if i == j then 1 else 0) (iota 3)
  in close1 (vjp h x 1) (map (\j -> jvp h x (unit j)) (iota 3))

-- A scan of affine maps v -> a v + b composed left to right, on pairs:
-- its operator's tangents read the values, so over many seeds it scans
-- (value, [k] tangents) pairs, which reverse mode does not differentiate;
-- under vjp, jmp of it keeps one jvp per seed.
def affine (x: [3]f64) : [3]f64 =
  let (a, b) = unzip (scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0)
                           (map (\v -> (f64.cos v, f64.sin v)) x))
  in map2 (+) a b

entry under_vjp [k] (x: [3]f64) (ds: [k][3]f64) : bool = rev_fwd f x ds
entry under_vjp_affine [k] (x: [3]f64) (ds: [k][3]f64) : bool = rev_fwd affine x ds

entry under_jvp [k] (x: [3]f64) (ds: [k][3]f64) : bool =
  let u = [0.5, -0.25, 1.0]
  in close (jvp (\z -> jmp f z ds) x u) (jvp (\z -> per_seed f z ds) x u)

entry of_jvp [k] (x: [3]f64) (ds: [k][3]f64) : bool =
  let h z = jvp f z [1.0, 0.5, -0.5]
  in close (jmp h x ds) (per_seed h x ds)

entry of_grad [k] (x: [3]f64) (ds: [k][3]f64) : bool =
  close (jmp grad x ds) (per_seed grad x ds)

entry in_map [k] (x: [3]f64) (ds: [k][3]f64) : bool =
  let xs = map (\s -> map (* s) x) [1.0, -0.5, 2.0]
  in and (map (\z -> close (jmp f z ds) (per_seed f z ds)) xs)

entry of_jmp [k] (x: [3]f64) (ds: [k][3]f64) : bool =
  let es = [[1.0, 0.0, 0.0], [0.25, -1.0, 0.5]]
  let h z = flatten (jmp f z ds) :> [k * 3]f64
  let h1 z = flatten (per_seed f z ds) :> [k * 3]f64
  in close (jmp h x es) (per_seed h1 x es)
