-- The short form `loop x for ...` uses the variable x in scope as the initial value.
-- ==
-- input { 3 4 } output { 7 }

def main (x: i32) (n: i32) =
  loop x for _i < n do x + 1
