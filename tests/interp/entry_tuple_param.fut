-- Entry points may take tuples and records of arrays. The values format
-- cannot spell such arguments, so only `main` has cases; the other entries
-- must still compile.
-- ==
-- input { [3, 1, 2] } output { 6 }

entry weigh (ws: []i32, xs: []i32) : i32 =
  i32.sum (map2 (*) ws (take (length ws) (xs ++ replicate (length ws) 0)))

entry spread {lo: i32, vals: []i32} : []i32 = map (+ lo) vals

def main (xs: []i32) : i32 = weigh (xs, replicate (length xs) 1) + i32.sum (spread {lo = 0, vals = []})
