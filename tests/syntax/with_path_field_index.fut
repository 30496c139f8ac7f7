-- Update paths that start with a field and index into it: `r with f[i] = v`,
-- deeper mixes `r with a.b[i].c = v`, slices `r with a[1:3] = v` and
-- several index steps `xss with [i][j] = v`.
-- ==
-- input { [1, 2, 3, 4] 2i64 }
-- output { [1, 2, 99, 4] 5i32 [0, 1, 2, 3] [1, 7, 8, 4] [[1, 2], [3, -1]] }

def main (xs: []i32) (i: i64) =
  let r = {f = copy xs, g = 5i32}
  let r2 = r with f[i] = 99
  let s = {a = {b = map (\x -> {c = x - 1, d = true}) xs}}
  let s2 = s with a.b[0].c = 0
  let t = {a = copy xs}
  let t2 = t with a[1:3] = [7, 8]
  let xss = [[1, 2], [3, 4]]
  let xss2 = xss with [1][1] = -1
  in (r2.f, r2.g, map (.c) s2.a.b, t2.a, xss2)
