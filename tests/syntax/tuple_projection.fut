-- Tuples are records with numeric field names: `.0`, `.1`, and `{0=a, 1=b}`.
-- ==
-- input { 3 } output { 3 4 7 }

def main (x: i32) : (i32, i32, i32) =
  let t = (x, x + 1)
  let u: (i32, i32) = {0 = 7, 1 = 8}
  in (t.0, t.1, u.0)
