-- Two unique components of a function's result may not share storage:
-- returning the same fresh array twice as `(*[]i64, *[]i64)` must be
-- rejected (U003).
-- ==
-- error: U003|alias

def main (n: i64) : (*[]i64, *[]i64) =
  let a = iota n
  in (a, a)
