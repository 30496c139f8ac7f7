-- Solving A x = b by Gaussian elimination with partial pivoting, using loops
-- with in-place updates of the augmented matrix.
-- ==
-- input { [[2.0, 1.0, -1.0], [-3.0, -1.0, 2.0], [-2.0, 1.0, 2.0]] [8.0, -11.0, -3.0] }
-- output { [2.0, 3.0, -1.0] }
-- input { [[0.0, 1.0], [1.0, 0.0]] [3.0, 4.0] }
-- output { [4.0, 3.0] }
-- input { [[4.0]] [2.0] }
-- output { [0.5] }

def swap_rows [n][m] (a: *[n][m]f64) (i: i64) (j: i64) : *[n][m]f64 =
  if i == j then a
  else let ri = copy a[i]
       let rj = copy a[j]
       let a[i] = rj
       let a[j] = ri
       in a

def pivot_row [n][m] (a: [n][m]f64) (k: i64) : i64 =
  let (_, best) =
    loop (bv, bi) = (-1.0, k) for i in k..<n do
      let v = f64.abs a[i, k]
      in if v > bv then (v, i) else (bv, bi)
  in best

def solve [n] (a0: [n][n]f64) (b: [n]f64) : [n]f64 =
  -- augmented matrix [A | b]
  let aug = map2 (\row bi -> row ++ [bi]) a0 b
  let m = n + 1
  let aug = copy (aug :> [n][m]f64)
  let aug =
    loop aug for k < n do
      let p = pivot_row aug k
      let aug = swap_rows aug k p
      in loop aug for i in (k + 1)..<n do
           let factor = aug[i, k] / aug[k, k]
           let newrow = map2 (\x y -> x - factor * y) aug[i] aug[k]
           in aug with [i] = newrow
  -- back substitution
  let x = replicate n 0.0
  in loop x for j < n do
       let i = n - 1 - j
       let s = loop s = 0.0 for c in (i + 1)..<n do s + aug[i, c] * x[c]
       in x with [i] = (aug[i, n] - s) / aug[i, i]

def main [n] (a: [n][n]f64) (b: [n]f64) : [n]f64 = solve a b
