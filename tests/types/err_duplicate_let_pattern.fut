-- A `let` pattern may not bind one name twice.
-- ==
-- error: T010

def main (a: i32) (b: i32) =
  let (x, x) = (a, b)
  in x
