-- Record literals, field punning and field access.
-- ==
-- input { 1 2 } output { 1 2 3 }

def main (x: i32) (y: i32) : (i32, i32, i32) =
  let r = {x, y, sum = x + y}
  in (r.x, r.y, r.sum)
