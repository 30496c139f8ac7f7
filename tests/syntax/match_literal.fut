-- match on integer literals with a wildcard fallback.
-- ==
-- input { 0 } output { 100 }
-- input { 1 } output { 200 }
-- input { 7 } output { 7 }

def main (x: i32) =
  match x
  case 0 -> 100
  case 1 -> 200
  case _ -> x
