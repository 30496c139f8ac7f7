-- Reverse mode through #[true_dep] loops whose in-place updates sit in
-- one branch of an `if`: the body of a bounded while loop (run as that many
-- guarded iterations) and a for loop that skips its update under a
-- condition. The array is saved once, with per iteration the condition,
-- the index and the overwritten element. Each Jacobian is built by jvp
-- over one-hot tangents and by vjp over one-hot seeds, and compared with
-- the values worked out by hand.
--
-- while_prefix: ys[i+1] = ys[i]·ys[i+1] while i < 2 and ys[i] >= 0, under
-- #[bound(4)]. From (a, b, c) with a, ab >= 0 the result is (a, ab, abc);
-- from (1, -1, 0.5) the loop stops after one step: (1, -1, 0.5), with
-- Jacobian [[1,0,0],[b,a,0],[0,0,1]].
-- ==
-- entry: while_prefix
-- input { [2.0, 3.0, 4.0] }
-- output { [2.0, 6.0, 24.0] [[1.0, 0.0, 0.0], [3.0, 2.0, 0.0], [12.0, 8.0, 6.0]] [[1.0, 0.0, 0.0], [3.0, 2.0, 0.0], [12.0, 8.0, 6.0]] }
-- input { [1.0, -1.0, 0.5] }
-- output { [1.0, -1.0, 0.5] [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [0.0, 0.0, 1.0]] [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [0.0, 0.0, 1.0]] }

-- skip_negative: for i < 3, ys[i+1] = ys[i]·ys[i+1] unless ys[i] < 0 (the
-- update is in the else branch). From (2, 3, 4, 5): (2, 6, 24, 120); from
-- (-1, 3, 4, 5) the first step is skipped: (-1, 3, 12, 60).
-- ==
-- entry: skip_negative
-- input { [2.0, 3.0, 4.0, 5.0] }
-- output { [2.0, 6.0, 24.0, 120.0]
--          [[1.0, 0.0, 0.0, 0.0], [3.0, 2.0, 0.0, 0.0], [12.0, 8.0, 6.0, 0.0], [60.0, 40.0, 30.0, 24.0]]
--          [[1.0, 0.0, 0.0, 0.0], [3.0, 2.0, 0.0, 0.0], [12.0, 8.0, 6.0, 0.0], [60.0, 40.0, 30.0, 24.0]] }
-- input { [-1.0, 3.0, 4.0, 5.0] }
-- output { [-1.0, 3.0, 12.0, 60.0]
--          [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 4.0, 3.0, 0.0], [0.0, 20.0, 15.0, 12.0]]
--          [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 4.0, 3.0, 0.0], [0.0, 20.0, 15.0, 12.0]] }

def while_product (xs: [3]f64) : [3]f64 =
  let (_, ys) =
    #[true_dep] #[bound(4)]
    loop (i, ys) = (0, copy xs) while i < 2 && ys[i] >= 0 do
      (i + 1, ys with [i + 1] = ys[i] * ys[i + 1])
  in ys

def skipping_product (xs: [4]f64) : [4]f64 =
  #[true_dep]
  loop ys = copy xs for i < 3 do
    if ys[i] < 0 then ys else ys with [i + 1] = ys[i] * ys[i + 1]

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

entry while_prefix (v: [3]f64) : ([3]f64, [3][3]f64, [3][3]f64) =
  let cols = map (\i -> jvp while_product v (onehot 3 i)) (iota 3)
  let rows = map (\i -> vjp while_product v (onehot 3 i)) (iota 3)
  in (while_product v, transpose cols, rows)

entry skip_negative (v: [4]f64) : ([4]f64, [4][4]f64, [4][4]f64) =
  let cols = map (\i -> jvp skipping_product v (onehot 4 i)) (iota 4)
  let rows = map (\i -> vjp skipping_product v (onehot 4 i)) (iota 4)
  in (skipping_product v, transpose cols, rows)
