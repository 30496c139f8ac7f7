-- A loop whose array parameter changes size each iteration.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8] } output { [36] }

def main (xs: []i32) : []i32 =
  loop ys = xs while length ys > 1 do
    let h = length ys / 2
    in map (\i -> ys[2 * i] + ys[2 * i + 1]) (iota h)
