-- Reverse mode through a loop whose body is an `if` that returns its array
-- parameter unchanged or updates one element (one row) of it from an
-- element it reads, the shape of a skeleton's chain of transforms: the
-- return sweep passes the adjoint of the array, owned by the return loop,
-- into both branches, which update it in place. Each Jacobian is built by
-- jvp over one-hot tangents and by vjp over one-hot seeds, and compared
-- with the values worked out by hand.
--
-- chain: for i < 4, ys[i] = ys[p]·ys[i] with p = parents[i], unless p < 0.
-- With parents (2, -1, 0, 1), from x: (x0·x2, x1, x0·x2², x1·x3); the
-- first step reads ys[2] before the third overwrites it with a product
-- that reads itself. With parents (-1, 0, 1, 0): (x0, x0·x1, x0·x1·x2,
-- x0·x3).
-- ==
-- entry: chain
-- input { [2i64, -1i64, 0i64, 1i64] [2.0, 3.0, 4.0, 5.0] }
-- output { [8.0, 3.0, 32.0, 15.0]
--          [[4.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 0.0], [16.0, 0.0, 16.0, 0.0], [0.0, 5.0, 0.0, 3.0]]
--          [[4.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 0.0], [16.0, 0.0, 16.0, 0.0], [0.0, 5.0, 0.0, 3.0]] }
-- input { [-1i64, 0i64, 1i64, 0i64] [2.0, 3.0, 4.0, 5.0] }
-- output { [2.0, 6.0, 24.0, 10.0]
--          [[1.0, 0.0, 0.0, 0.0], [3.0, 2.0, 0.0, 0.0], [12.0, 8.0, 6.0, 0.0], [5.0, 0.0, 0.0, 2.0]]
--          [[1.0, 0.0, 0.0, 0.0], [3.0, 2.0, 0.0, 0.0], [12.0, 8.0, 6.0, 0.0], [5.0, 0.0, 0.0, 2.0]] }

-- chain_rows: the same on rows of two elements, multiplied elementwise,
-- with parents (-1, 0, 0): from rows (a, b), (c, d), (e, f) the rows
-- (a, b), (a·c, b·d), (a·e, b·f), flattened.
-- ==
-- entry: chain_rows
-- input { [-1i64, 0i64, 0i64] [[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]] }
-- output { [2.0, 3.0, 8.0, 15.0, 12.0, 21.0]
--          [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
--           [4.0, 0.0, 2.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 3.0, 0.0, 0.0],
--           [6.0, 0.0, 0.0, 0.0, 2.0, 0.0], [0.0, 7.0, 0.0, 0.0, 0.0, 3.0]]
--          [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
--           [4.0, 0.0, 2.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 3.0, 0.0, 0.0],
--           [6.0, 0.0, 0.0, 0.0, 2.0, 0.0], [0.0, 7.0, 0.0, 0.0, 0.0, 3.0]] }

def product_chain [n] (parents: [n]i64) (xs: [n]f64) : [n]f64 =
  loop ys = copy xs for i < n do
    let p = parents[i]
    in if p < 0 then ys else ys with [i] = ys[p] * ys[i]

def row_chain [n] (parents: [n]i64) (xs: [n][2]f64) : [n * 2]f64 =
  let ys =
    loop ys = copy xs for i < n do
      let p = parents[i]
      in if p < 0 then ys else ys with [i] = map2 (*) ys[p] ys[i]
  in flatten ys

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

entry chain [n] (parents: [n]i64) (v: [n]f64) : ([n]f64, [n][n]f64, [n][n]f64) =
  let f = product_chain parents
  let cols = map (\i -> jvp f v (onehot n i)) (iota n)
  let rows = map (\i -> vjp f v (onehot n i)) (iota n)
  in (f v, transpose cols, rows)

entry chain_rows [n] (parents: [n]i64) (v: [n][2]f64) : ([n * 2]f64, [n * 2][n * 2]f64, [n * 2][n * 2]f64) =
  let f (x: [n * 2]f64) = row_chain parents (unflatten x)
  let x = flatten v
  let cols = map (\i -> jvp f x (onehot (n * 2) i)) (iota (n * 2))
  let rows = map (\i -> vjp f x (onehot (n * 2) i)) (iota (n * 2))
  in (f x, transpose cols, rows)
