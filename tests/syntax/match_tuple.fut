-- match on tuples, mixing literals and variables.
-- ==
-- input { 0 5 } output { 5 }
-- input { 3 0 } output { 3 }
-- input { 2 3 } output { 6 }

def main (a: i32) (b: i32) =
  match (a, b)
  case (0, y) -> y
  case (x, 0) -> x
  case (x, y) -> x * y
