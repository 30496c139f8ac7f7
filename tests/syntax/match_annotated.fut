-- Type-annotated patterns in match cases.
-- ==
-- input { 4 } output { 5 }

def main (x: i32) =
  match (x, true)
  case ((y: i32), (_: bool)) -> y + 1
