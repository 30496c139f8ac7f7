-- match on booleans, and nested constructor patterns.
-- ==
-- input { true 3 } output { 3 }
-- input { false 3 } output { -1 }

type opt = #some i32 | #none

def main (b: bool) (x: i32) =
  let o: opt = match b
               case true -> #some x
               case false -> #none
  in match o
     case #some v -> v
     case #none -> -1
