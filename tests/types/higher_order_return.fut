-- Functions returning functions, and function-typed record fields.
-- ==
-- input { 4 } output { 12 5 }

def scale (k: i32) : i32 -> i32 = \x -> k * x

def main (x: i32) : (i32, i32) =
  let r = {f = scale 3, g = \(y: i32) -> y + 1}
  in (r.f x, r.g x)
