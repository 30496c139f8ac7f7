-- A linear-algebra functor over any numeric module, applied to f64, f32 and i32.
-- ==
-- entry: matmul_f64
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] }
-- output { [[19.0, 22.0], [43.0, 50.0]] }
-- input { [[1.0, 0.0, 2.0]] [[1.0], [2.0], [3.0]] }
-- output { [[7.0]] }

-- ==
-- entry: matvec_f32
-- input { [[1.0f32, 2.0f32], [3.0f32, 4.0f32], [0.5f32, 0.5f32]] [2.0f32, 1.0f32] }
-- output { [4.0f32, 10.0f32, 1.5f32] }

-- ==
-- entry: dot_i32
-- input { [1, 2, 3] [4, 5, 6] } output { 32 }
-- input { empty([0]i32) empty([0]i32) } output { 0 }

-- ==
-- entry: power_f64
-- input { [[1.0, 1.0], [1.0, 0.0]] 10 } output { [[89.0, 55.0], [55.0, 34.0]] }
-- input { [[2.0, 0.0], [0.0, 3.0]] 0 } output { [[1.0, 0.0], [0.0, 1.0]] }

-- ==
-- entry: trace_outer_f32
-- input { [1.0f32, 2.0f32, 3.0f32] [4.0f32, 5.0f32, 6.0f32] } output { 32.0f32 }

module linalg (T: numeric) = {
  type t = T.t

  def dotprod [n] (xs: [n]t) (ys: [n]t) : t =
    reduce (T.+) (T.i32 0) (map2 (T.*) xs ys)

  def matvec [n][m] (a: [n][m]t) (x: [m]t) : [n]t =
    map (\row -> dotprod row x) a

  def matmul [n][k][m] (a: [n][k]t) (b: [k][m]t) : [n][m]t =
    map (\row -> map (\col -> dotprod row col) (transpose b)) a

  def identity (n: i64) : [n][n]t =
    tabulate_2d n n (\i j -> if i == j then T.i32 1 else T.i32 0)

  def outer [n][m] (xs: [n]t) (ys: [m]t) : [n][m]t =
    map (\x -> map (\y -> x T.* y) ys) xs

  def trace [n] (a: [n][n]t) : t =
    reduce (T.+) (T.i32 0) (map (\i -> a[i, i]) (iota n))

  def matpow [n] (a: [n][n]t) (k: i32) : [n][n]t =
    loop acc = identity n for _i < k do matmul acc a
}

module la64 = linalg f64
module la32 = linalg f32
module lai32 = linalg i32

entry matmul_f64 [n][k][m] (a: [n][k]f64) (b: [k][m]f64) : [n][m]f64 = la64.matmul a b
entry matvec_f32 [n][m] (a: [n][m]f32) (x: [m]f32) : [n]f32 = la32.matvec a x
entry dot_i32 [n] (xs: [n]i32) (ys: [n]i32) : i32 = lai32.dotprod xs ys
entry power_f64 [n] (a: [n][n]f64) (k: i32) : [n][n]f64 = la64.matpow a k
entry trace_outer_f32 [n] (xs: [n]f32) (ys: [n]f32) : f32 = la32.trace (la32.outer xs ys)
