-- match with negative literal patterns.
-- ==
-- input { -1 } output { 100 }
-- input { 1 } output { 200 }
-- input { 5 } output { 0 }

def main (x: i32) : i32 =
  match x
  case -1 -> 100
  case 1 -> 200
  case _ -> 0
