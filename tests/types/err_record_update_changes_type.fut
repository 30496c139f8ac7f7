-- A record update may not change the type of the field it replaces.
-- ==
-- error: T002

def main (x: i32) (y: i32) : (bool, i32) =
  let r = {x, y}
  let s = r with x = true
  in (s.x, s.y)
