-- Sections of paths that mix fields and indices: `(.[0].f)`, `(.a[1:3])`,
-- `(.a.b)` and `(.[i][j])`.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [1, 4] [[2, 3], [5, 6]] [2, 5] 6 [10, 40] }

def main (xss: [][3]i32) =
  let rs = map (\xs -> {a = xs, b = {c = xs[0] * 10}}) xss
  let ps = map (\xs -> [{f = xs[0]}, {f = xs[1]}]) xss
  in ( map (.[0].f) ps
     , map (.a[1:3]) rs
     , map (.[1].f) ps
     , (.[1][2]) xss
     , map (.b.c) rs )
