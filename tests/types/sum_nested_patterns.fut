-- Nested constructor and tuple patterns.
-- ==
-- input { 1 2 } output { 3 }
-- input { 0 2 } output { 2 }
-- input { 0 0 } output { 0 }

type opt = #some i32 | #none

def main (a: i32) (b: i32) =
  let oa: opt = if a == 0 then #none else #some a
  let ob: opt = if b == 0 then #none else #some b
  in match (oa, ob)
     case (#some x, #some y) -> x + y
     case (#none, #some y) -> y
     case (#some x, #none) -> x
     case (#none, #none) -> 0
