-- Update paths through arrays inside records inside arrays, slices followed by
-- indices, and a path update in a loop that consumes its parameter.
-- ==
-- input { 3i64 }
-- output { [[0, 0, 0], [0, 7, 0], [0, 0, 0]] [1, 2, 3] [0, 9, 2, 3] [0i64, 2i64, 4i64] }

def main (n: i64) =
  let rs = tabulate n (\i -> {a = replicate n 0i32, k = i32.i64 i + 1})
  let rs = rs with [1].a[1] = 7
  let xs = iota 4 |> map i32.i64
  let xs = xs with [1:3][0] = 9
  let ps = tabulate n (\i -> (i, 0i64))
  let ps = loop ps for i < n do ps with [i].1 = ps[i].0 * 2
  in (map (.a) rs, map (.k) rs, xs, map (.1) ps)
