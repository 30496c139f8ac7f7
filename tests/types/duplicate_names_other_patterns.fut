-- Names may be reused across separate patterns: shadowing by a later `let`, a
-- `match` case and a loop parameter that rebind a name are all fine.
-- ==
-- input { 3 } output { 7 }

def main (x: i32) =
  let x = x + 1
  let (y, z) = (x, x)
  let x = match (y, z) case (a, b) -> a + b
  in loop x = x for i < 1 do x - 1
