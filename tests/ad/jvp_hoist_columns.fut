-- A Jacobian built column by column, one `jvp` per one-hot direction made
-- inside a map over a constant number of columns (as ADBench's Hand does):
-- the value half of every statement (a loop updating an array in place,
-- maps with reductions, an `if` on an input) does not depend on the column
-- and is computed once, outside the map; the results are those of the
-- interpreter.
-- ==
-- entry: jacobian
-- input { [0.5, -1.25, 2.0] [1i32, -1i32, 0i32, 1i32] true }
-- output { [[-1.0, -9.0, -21.0, -341.0625],
--           [10.0, 2.5, 780.0, 143.625],
--           [-33.0, -14.0, -485.25, -175.5]] }
-- input { [0.5, -1.25, 2.0] [1i32, -1i32, 0i32, 1i32] false }
-- output { [[1.0, 9.0, 25.0, 377.0625],
--           [-10.0, -2.5, -780.0, -143.625],
--           [39.0, 18.0, 486.25, 184.5]] }
def model [n] [b] (parents: [b]i32) (mirror: bool) (th: [n]f64) : []f64 =
  let rows = map (\i -> map (\k -> th[(i + k) % n] * f64.i64 (k + 1)) (iota n)) (iota b)
  let chain =
    loop acc = copy rows for i < b do
      let p = parents[i]
      in if p < 0 || i64.i32 p >= i
         then acc
         else acc with [i] = map2 (\x y -> x * y + 1) acc[i64.i32 p] rows[i]
  let sums = map (\r -> f64.sum (map (\x -> x * x) r)) chain
  let flipped = if mirror then map (\s -> -s) sums else sums
  in map2 (+) flipped (map (\r -> f64.maximum r) chain)

entry jacobian [b] (theta: [3]f64) (parents: [b]i32) (mirror: bool) : [3][]f64 =
  tabulate 3 (\j ->
    jvp (model parents mirror) theta (tabulate 3 (\k -> f64.bool (k == j))))
