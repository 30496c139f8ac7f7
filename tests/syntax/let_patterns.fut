-- let binds tuple, record, nested and wildcard patterns.
-- ==
-- input { 1 2 3 } output { 6 2 3 }

def main (a: i32) (b: i32) (c: i32) : (i32, i32, i32) =
  let (x, (y, z)) = (a, (b, c))
  let {f, g = h} = {f = x + y + z, g = b}
  let (_, w) = (h, c)
  in (f, h, w)
