-- The short form with a tuple pattern of variables in scope.
-- ==
-- input { 1 2 3 } output { 4 2 }

def main (a: i32) (b: i32) (n: i32) : (i32, i32) =
  loop (a, b) for _i < n do (a + 1, b)
