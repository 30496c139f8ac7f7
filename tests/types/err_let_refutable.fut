-- A refutable pattern in a let binding.
-- ==
-- error: T005

type t = #a i32 | #b
def main (x: i32) : i32 =
  let v: t = #a x
  let #a y = v
  in y
