-- Reverse mode through #[true_dep] loops: an array that the body changes
-- only by in-place updates is saved once (its final value) plus the
-- elements each iteration overwrites, instead of once per iteration; the
-- return sweep rebuilds each iteration's array by writing them back.
-- Each Jacobian is built by jvp over one-hot tangents and by vjp over
-- one-hot seeds, and compared with the values worked out by hand.
--
-- prefix: a running product, ys[i+1] = ys[i]·ys[i+1]: from (a, b, c) the
-- result is (a, ab, abc), with Jacobian [[1,0,0],[b,a,0],[bc,ac,ab]].
-- ==
-- entry: prefix
-- input { [2.0, 3.0, 4.0] }
-- output { [2.0, 6.0, 24.0] [[1.0, 0.0, 0.0], [3.0, 2.0, 0.0], [12.0, 8.0, 6.0]] [[1.0, 0.0, 0.0], [3.0, 2.0, 0.0], [12.0, 8.0, 6.0]] }
-- input { [1.0, -1.0, 0.5] }
-- output { [1.0, -1.0, -0.5] [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [-0.5, 0.5, -1.0]] [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [-0.5, 0.5, -1.0]] }

-- twice: two updates per iteration (the second overwrites an element the
-- first read) and a second array parameter that the loop never changes.
-- From xs = (x0, x1, x2), ws = (w0, w1, w2), two iterations give
-- (x0 + 1, x0·w0 + 1, x0·w0·w1): x1 and x2 are overwritten, so their
-- columns are zero.
-- ==
-- entry: twice
-- input { [1.0, 5.0, 7.0, 2.0, 3.0, 4.0] }
-- output { [2.0, 3.0, 6.0]
--          [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 1.0, 0.0, 0.0], [6.0, 0.0, 0.0, 3.0, 2.0, 0.0]]
--          [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 1.0, 0.0, 0.0], [6.0, 0.0, 0.0, 3.0, 2.0, 0.0]] }

def running_product (xs: [3]f64) : [3]f64 =
  #[true_dep]
  loop ys = copy xs for i < 2 do
    ys with [i + 1] = ys[i] * ys[i + 1]

def two_updates (v: [6]f64) : [3]f64 =
  let (ys, _) =
    #[true_dep]
    loop (ys, ws) = (copy v[0:3], copy v[3:6]) for i < 2 do
      let ys = ys with [i + 1] = ys[i] * ws[i]
      let ys = ys with [i] = ys[i] + 1
      in (ys, ws)
  in ys :> [3]f64

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

entry prefix (v: [3]f64) : ([3]f64, [3][3]f64, [3][3]f64) =
  let cols = map (\i -> jvp running_product v (onehot 3 i)) (iota 3)
  let rows = map (\i -> vjp running_product v (onehot 3 i)) (iota 3)
  in (running_product v, transpose cols, rows)

entry twice (v: [6]f64) : ([3]f64, [3][6]f64, [3][6]f64) =
  let cols = map (\i -> jvp two_updates v (onehot 6 i)) (iota 6)
  let rows = map (\i -> vjp two_updates v (onehot 3 i)) (iota 3)
  in (two_updates v, transpose cols, rows)
