-- Reverse mode through a while loop with #[bound(n)]: the loop becomes n
-- iterations of a for loop guarded by its condition. The loop doubles a
-- while it is below 10 and multiplies b by a each time. From (1.5, 1) it
-- runs three times: a = 8·a0 = 12, b = 8·a0³·b0 = 27, so the Jacobian is
-- [[8, 0], [24·a0²·b0, 8·a0³]] = [[8, 0], [54, 27]]. From (3, 2) it runs
-- twice: a = 4·a0, b = 2·a0²·b0, Jacobian [[4, 0], [4·a0·b0, 2·a0²]]. From
-- (20, 5) it does not run at all: the identity.
-- The three matrices are the Jacobian, by jvp over one-hot tangents, by vjp
-- over one-hot seeds, and by vjp of the loop strip-mined as well.
-- ==
-- input { [1.5, 1.0] } output { [12.0, 27.0] [[8.0, 0.0], [54.0, 27.0]] [[8.0, 0.0], [54.0, 27.0]] [[8.0, 0.0], [54.0, 27.0]] }
-- input { [3.0, 2.0] } output { [12.0, 36.0] [[4.0, 0.0], [24.0, 18.0]] [[4.0, 0.0], [24.0, 18.0]] [[4.0, 0.0], [24.0, 18.0]] }
-- input { [20.0, 5.0] } output { [20.0, 5.0] [[1.0, 0.0], [0.0, 1.0]] [[1.0, 0.0], [0.0, 1.0]] [[1.0, 0.0], [0.0, 1.0]] }

def f (v: [2]f64) : [2]f64 =
  let (a, b) =
    #[bound(8)]
    loop (a, b) = (v[0], v[1]) while a < 10 do (a * 2, b * a)
  in [a, b]

def g (v: [2]f64) : [2]f64 =
  let (a, b) =
    #[bound(8)] #[stripmine(2)]
    loop (a, b) = (v[0], v[1]) while a < 10 do (a * 2, b * a)
  in [a, b]

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def main (v: [2]f64) : ([2]f64, [2][2]f64, [2][2]f64, [2][2]f64) =
  let cols = map (\i -> jvp f v (onehot 2 i)) (iota 2)
  let rows = map (\i -> vjp f v (onehot 2 i)) (iota 2)
  let rows_strip = map (\i -> vjp g v (onehot 2 i)) (iota 2)
  in (f v, transpose cols, rows, rows_strip)
