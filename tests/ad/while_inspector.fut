-- Reverse mode through a while loop without a bound: an inspector runs the
-- loop first to count its iterations, then a for loop of that many
-- iterations is differentiated. Newton's iteration for √c stops when
-- |x² - c| is small; its derivative is that of √c, 1/(2√c), up to the
-- last step's error. f (c, d) = (√c, d·√c): at (4, 9) the Jacobian is
-- [[0.25, 0], [9/4, 2]]; at (2, 1) it is [[1/(2√2), 0], [1/(2√2), √2]].
-- Both matrices are the Jacobian, by jvp over one-hot tangents and by vjp
-- over one-hot seeds.
-- ==
-- input { [4.0, 9.0] } output { [2.0, 18.0] [[0.25, 0.0], [2.25, 2.0]] [[0.25, 0.0], [2.25, 2.0]] }
-- input { [2.0, 1.0] } output { [1.4142135623730951, 1.4142135623730951] [[0.35355339059327373, 0.0], [0.35355339059327373, 1.4142135623730951]] [[0.35355339059327373, 0.0], [0.35355339059327373, 1.4142135623730951]] }

def newton_sqrt (c: f64) : f64 =
  loop x = c while f64.abs (x * x - c) > 1e-12 do (x + c / x) / 2

def f (v: [2]f64) : [2]f64 =
  let r = newton_sqrt v[0]
  in [r, v[1] * r]

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def main (v: [2]f64) : ([2]f64, [2][2]f64, [2][2]f64) =
  let cols = map (\i -> jvp f v (onehot 2 i)) (iota 2)
  let rows = map (\i -> vjp f v (onehot 2 i)) (iota 2)
  in (f v, transpose cols, rows)
