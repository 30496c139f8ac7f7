-- Reverse mode through a for loop marked #[stripmine(k)]: the loop is split
-- into k nested loops of about n^(1/k) iterations each (a guard skips the
-- iterations past n), so that its checkpoints take about k·n^(1/k) rows
-- instead of n. The results are exactly the loop's.
-- The loop runs a ← a·b + i for i < n, so a = a0·bⁿ + Σᵢ i·b^(n-1-i) and
-- the Jacobian of (a, b) is [[bⁿ, n·a0·b^(n-1) + Σᵢ i·(n-1-i)·b^(n-2-i)],
-- [0, 1]]. At (a0, b) = (2, 1.5) and n = 5: a = 31.5625, bⁿ = 7.59375,
-- n·a0·b⁴ = 50.625 and the sum is 15.75.
-- The three matrices are the Jacobian by jvp over one-hot tangents and by
-- vjp over one-hot seeds with k = 2 and with k = 3.
-- ==
-- input { [2.0, 1.5] 5i64 } output { [31.5625, 1.5] [[7.59375, 66.375], [0.0, 1.0]] [[7.59375, 66.375], [0.0, 1.0]] [[7.59375, 66.375], [0.0, 1.0]] }
-- input { [2.0, 1.5] 0i64 } output { [2.0, 1.5] [[1.0, 0.0], [0.0, 1.0]] [[1.0, 0.0], [0.0, 1.0]] [[1.0, 0.0], [0.0, 1.0]] }
-- input { [2.0, 1.5] 1i64 } output { [3.0, 1.5] [[1.5, 2.0], [0.0, 1.0]] [[1.5, 2.0], [0.0, 1.0]] [[1.5, 2.0], [0.0, 1.0]] }
-- input { [0.5, -1.0] 10i64 } output { [5.5, -1.0] [[1.0, -5.0], [0.0, 1.0]] [[1.0, -5.0], [0.0, 1.0]] [[1.0, -5.0], [0.0, 1.0]] }

def step (a: f64) (b: f64) (i: i64) : f64 = a * b + f64.i64 i

def f2 (n: i64) (v: [2]f64) : [2]f64 =
  let a = #[stripmine(2)] loop a = v[0] for i < n do step a v[1] i
  in [a, v[1]]

def f3 (n: i64) (v: [2]f64) : [2]f64 =
  let a = #[stripmine(3)] loop a = v[0] for i < n do step a v[1] i
  in [a, v[1]]

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def main (v: [2]f64) (n: i64) : ([2]f64, [2][2]f64, [2][2]f64, [2][2]f64) =
  let cols = map (\i -> jvp (f2 n) v (onehot 2 i)) (iota 2)
  let rows2 = map (\i -> vjp (f2 n) v (onehot 2 i)) (iota 2)
  let rows3 = map (\i -> vjp (f3 n) v (onehot 2 i)) (iota 2)
  in (f2 n v, transpose cols, rows2, rows3)
