-- A record update may change the type of the field.
-- ==
-- input { 3 } output { 3 true }

def main (v: i32) : (i32, bool) =
  let r = {a = v, b = 0}
  let r' = r with b = true
  in (r'.a, r'.b)
