-- A match on integers without a catch-all case.
-- ==
-- error: T005

def main (x: i32) : i32 =
  match x
  case 0 -> 1
  case 1 -> 2
