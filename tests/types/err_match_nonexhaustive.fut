-- A match that misses a constructor.
-- ==
-- error: T005

type t = #a | #b
def main (x: bool) : i32 =
  let v: t = if x then #a else #b
  in match v
     case #a -> 1
