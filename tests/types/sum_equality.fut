-- Sum values without payload functions can be compared with ==.
-- ==
-- input { 1 } output { true false }
-- input { 2 } output { false true }

type colour = #red | #green | #blue

def main (k: i32) : (bool, bool) =
  let c: colour = if k == 1 then #red else #blue
  in (c == #red, c == #blue)
