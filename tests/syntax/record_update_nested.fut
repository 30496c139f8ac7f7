-- Nested record update `r with a.b = v`.
-- ==
-- input { 5 } output { 5 6 7 }

def main (v: i32) : (i32, i32, i32) =
  let r = {a = {b = 0, c = 6}, d = 7}
  let r = r with a.b = v
  in (r.a.b, r.a.c, r.d)
