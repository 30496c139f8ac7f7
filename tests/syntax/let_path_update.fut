-- In-place binding forms with paths: `let xs[i].f = v` and `let r.f[i] = v`.
-- ==
-- input { [1, 2, 3] 2i64 }
-- output { [1, 2, -3] [true, false, true] [10, 2, 3] [[0, 0], [0, 5]] }

def main (xs: *[]i32) (i: i64) =
  let ps = map (\x -> (x, x % 2 == 1)) xs
  let ps[i].0 = -ps[i].0
  let r = {v = copy xs, m = replicate 2 (replicate 2 0i32)}
  let r.v[0] = 10
  let r.m[1][1] = 5
  in (map (.0) ps, map (.1) ps, r.v, r.m)
