-- Record update `r with f = v` replaces one field.
-- ==
-- input { 1 2 } output { 1 20 }

def main (a: i32) (b: i32) : (i32, i32) =
  let r = {x = a, y = b}
  let r' = r with y = r.y * 10
  in (r'.x, r'.y)
