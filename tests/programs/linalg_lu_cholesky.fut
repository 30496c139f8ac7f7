-- A generic dense linear-algebra module over `real`: LU factorisation with
-- partial pivoting, triangular solves, determinant and Cholesky, applied at
-- f64 and f32 through a functor with a `with` refinement.
-- ==
-- entry: solve_f64
-- input { [[2.0, 1.0, 1.0], [4.0, -6.0, 0.0], [-2.0, 7.0, 2.0]] [5.0, -2.0, 9.0] }
-- output { [1.0, 1.0, 2.0] }
-- input { [[0.0, 2.0], [3.0, 1.0]] [4.0, 5.0] }
-- output { [1.0, 2.0] }
-- input { [[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 1.0], [0.0, 5.0, 1.0, 2.0], [3.0, 0.0, 2.0, 7.0]] [1.0, 2.0, 3.0, 4.0] }
-- output { [0.3673469387755102, 0.5306122448979592, -1.1224489795918366, 0.7346938775510204] }

-- ==
-- entry: solve_f32
-- input { [[4.0f32, 3.0f32], [6.0f32, 3.0f32]] [10.0f32, 12.0f32] }
-- output { [1.0f32, 2.0f32] }

-- ==
-- entry: lu_perm
-- input { [[1.0, 2.0, 3.0], [7.0, 8.0, 10.0], [4.0, 5.0, 6.0]] }
-- output { [1i64, 0i64, 2i64] }
-- input { [[5.0, 1.0], [1.0, 5.0]] }
-- output { [0i64, 1i64] }

-- ==
-- entry: det_f64
-- input { [[1.0, 2.0, 3.0], [7.0, 8.0, 10.0], [4.0, 5.0, 6.0]] }
-- output { 3.0 }
-- input { [[0.0, 1.0], [1.0, 0.0]] }
-- output { -1.0 }
-- input { [[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 4.0]] }
-- output { 24.0 }

-- ==
-- entry: cholesky_f64
-- input { [[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]] }
-- output { [[2.0, 0.0, 0.0], [6.0, 1.0, 0.0], [-8.0, 5.0, 3.0]] }
-- input { [[9.0]] }
-- output { [[3.0]] }

module type linalg = {
  type t
  val dot [n] : [n]t -> [n]t -> t
  val matvec [n] [m] : [n][m]t -> [m]t -> [n]t
  val lu [n] : [n][n]t -> ([n][n]t, [n]i64)
  val solve [n] : [n][n]t -> [n]t -> [n]t
  val det [n] : [n][n]t -> t
  val cholesky [n] : [n][n]t -> [n][n]t
}

module mk_linalg (R: real) : linalg with t = R.t = {
  type t = R.t
  local def zero = R.i64 0
  local def one = R.i64 1

  def dot [n] (xs: [n]t) (ys: [n]t) : t = reduce (R.+) zero (map2 (R.*) xs ys)

  def matvec [n] [m] (a: [n][m]t) (x: [m]t) : [n]t = map (\r -> dot r x) a

  local def argmax_from [n] (k: i64) (col: [n]t) : i64 =
    let cands = map2 (\i x -> if i < k then (i, R.i64 (-1)) else (i, R.abs x)) (iota n) col
    in (reduce (\(i, x) (j, y) -> if x R.>= y then (i, x) else (j, y)) (0, R.i64 (-1)) cands).0

  def lu [n] (a: [n][n]t) : ([n][n]t, [n]i64) =
    loop (a, perm) = (copy a, iota n) for k < n do
      let p = argmax_from k a[:, k]
      let rk = copy a[k]
      let rp = copy a[p]
      let a[k] = rp
      let a = a with [p] = rk
      -- Values of the abstract element type may alias the matrix, hence the copies.
      let pk = perm[k]
      let perm[k] = perm[p]
      let perm[p] = pk
      let piv = copy a[k, k]
      let a =
        loop a for i in (k + 1)..<n do
          let f = copy (a[i, k] R./ piv)
          let a[i, k] = f
          in loop a for j in (k + 1)..<n do
               a with [i, j] = copy (a[i, j] R.- f R.* a[k, j])
      in (a, perm)

  def solve [n] (a: [n][n]t) (b: [n]t) : [n]t =
    let (lu, perm) = lu a
    let y =
      loop y = replicate n zero for i < n do
        let s = reduce (R.+) zero (map2 (\j yj -> if j < i then lu[i, j] R.* yj else zero) (iota n) y)
        in y with [i] = copy (b[perm[i]] R.- s)
    in loop x = replicate n zero for i' < n do
         let i = n - 1 - i'
         let s = reduce (R.+) zero (map2 (\j xj -> if j > i then lu[i, j] R.* xj else zero) (iota n) x)
         in x with [i] = copy ((y[i] R.- s) R./ lu[i, i])

  def det [n] (a: [n][n]t) : t =
    let (lu, perm) = lu a
    let inversions =
      i64.sum (map (\i -> i64.sum (map (\j -> i64.bool (j > i && perm[j] < perm[i])) (iota n))) (iota n))
    let d = reduce (R.*) one (map (\i -> lu[i, i]) (iota n))
    in if inversions % 2 == 0 then d else R.neg d

  def cholesky [n] (a: [n][n]t) : [n][n]t =
    loop l = replicate n (replicate n zero) for i < n do
      loop l for j < i + 1 do
        let s = reduce (R.+) zero (map (\k -> if k < j then l[i, k] R.* l[j, k] else zero) (iota n))
        in if i == j then l with [i, i] = copy (R.sqrt (a[i, i] R.- s))
           else l with [i, j] = copy ((a[i, j] R.- s) R./ l[j, j])
}

module la64 = mk_linalg f64
module la32 = mk_linalg f32

entry solve_f64 [n] (a: [n][n]f64) (b: [n]f64) : [n]f64 = la64.solve a b
entry solve_f32 [n] (a: [n][n]f32) (b: [n]f32) : [n]f32 = la32.solve a b
entry lu_perm [n] (a: [n][n]f64) : [n]i64 = (la64.lu a).1
entry det_f64 [n] (a: [n][n]f64) : f64 = la64.det a
entry cholesky_f64 [n] (a: [n][n]f64) : [n][n]f64 = la64.cholesky a
