-- jmp through loops: all seeds' tangents carried by one loop whose primal
-- runs once (the loop's tangent parameters hold every seed), checked
-- against one jvp per seed (a seed read inside the map, which the
-- compiler expands seed by seed) on several seeds that are not one-hot,
-- and with no seeds.  `for_loop` at x = [1, 2], seeds (1, 0) and (0, 1):
-- y = (x0 * 1.1^3 + s, x1 + x0 * 3) with s the sum of x0 * 1.1^i for
-- i < 3 (the second component adds x0 each iteration), so the tangents are
-- (1.1^3 + 3.31, 3) and (0, 1) = (4.641, 3) and (0, 1).
-- ==
-- entry: for_loop_tangents
-- input { [1.0, 2.0] [[1.0, 0.0], [0.0, 1.0]] }
-- output { [[4.641, 3.0], [0.0, 1.0]] }

-- ==
-- entry: for_agrees nested_agrees inplace_agrees while_agrees scalar_agrees
-- input { [1.0, 2.0] [[1.0, 0.0], [0.0, 1.0]] } output { true }
-- input { [0.3, -1.2] [[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]] } output { true }
-- input { [1.5, 0.4] empty([0][2]f64) } output { true }

def close [k] [n] (a: [k][n]f64) (b: [k][n]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-10 * (1 + f64.abs x + f64.abs y)) r s)) a b)

-- One jvp per seed: the seed is read inside the map, so it is not a row
-- the map hands out, and the map keeps one jvp per seed.
def per_seed [k] [n] [m] (f: [n]f64 -> [m]f64) (x: [n]f64) (ds: [k][n]f64) : [k][m]f64 =
  map (\i -> jvp f x ds[i]) (iota k)

def agrees [k] [n] [m] (f: [n]f64 -> [m]f64) (x: [n]f64) (ds: [k][n]f64) : bool =
  close (jmp f x ds) (per_seed f x ds)

-- A for loop carrying an array and a scalar.
def for_loop (x: [2]f64) : [2]f64 =
  let (y, s) =
    loop (y, s) = (copy x, 0f64) for _i < 3 do
      (map (* 1.1) y with [1] = y[1] + x[0], s + y[0])
  in [y[0] + s, y[1]]

-- Nested loops, the inner one's trip count from the outer counter, with
-- nonlinear steps.
def nested (x: [2]f64) : [2]f64 =
  loop y = copy x for i < 3 do
    loop z = y for j < i + 1 do
      map (\v -> f64.sin v * z[0] + v * f64.i32 j) z

-- A loop updating its array in place, reading the previous element.
def inplace (x: [2]f64) : [2]f64 =
  loop y = copy x for i < 4 do
    let j = i % 2
    in y with [j] = y[j] * y[1 - j] + 0.5

-- A while loop whose trip count depends on the input (the inputs keep
-- away from the points where it jumps).
def while_loop (x: [2]f64) : [2]f64 =
  let (y, _) =
    loop (y, k) = (copy x, 0i64) while f64.sum (map (\v -> v * v) y) < 20 && k < 50 do
      (map (\v -> v * 1.3 + 0.1 * f64.cos v) y, k + 1)
  in y

-- A loop over scalars only: the tangents are [k] arrays.
def scalar_loop (x: [2]f64) : [2]f64 =
  let (a, b) = loop (a, b) = (x[0], x[1]) for i < 5 do (a * b * 0.5 + f64.i32 i, f64.exp (a * 0.1) - b)
  in [a, b]

entry for_loop_tangents (x: [2]f64) (ds: [][2]f64) : [][2]f64 = jmp for_loop x ds
entry for_agrees (x: [2]f64) (ds: [][2]f64) : bool = agrees for_loop x ds
entry nested_agrees (x: [2]f64) (ds: [][2]f64) : bool = agrees nested x ds
entry inplace_agrees (x: [2]f64) (ds: [][2]f64) : bool = agrees inplace x ds
entry while_agrees (x: [2]f64) (ds: [][2]f64) : bool = agrees while_loop x ds
entry scalar_agrees (x: [2]f64) (ds: [][2]f64) : bool = agrees scalar_loop x ds
