-- A full Jacobian built by mapping jvp over one-hot tangents, and by vjp over one-hot seeds.
-- f (x, y, z) = [x*y, y*z]
-- ==
-- input { [1.0, 2.0, 3.0] } output { [[2.0, 1.0, 0.0], [0.0, 3.0, 2.0]] [[2.0, 1.0, 0.0], [0.0, 3.0, 2.0]] }

def f (v: [3]f64) : [2]f64 = [v[0] * v[1], v[1] * v[2]]

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def main (v: [3]f64) : ([2][3]f64, [2][3]f64) =
  let cols = map (\i -> jvp f v (onehot 3 i)) (iota 3)
  let rows = map (\i -> vjp f v (onehot 2 i)) (iota 2)
  in (transpose cols, rows)
