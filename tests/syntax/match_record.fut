-- match on record patterns.
-- ==
-- input { 1 2 } output { 3 }
-- input { 0 9 } output { -9 }

def main (a: i32) (b: i32) =
  match {x = a, y = b}
  case {x = 0, y} -> -y
  case {x, y} -> x + y
