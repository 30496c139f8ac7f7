-- In `f <| e` the function `f` is evaluated before `e`. Here `f` is the section
-- `([0] ++)`, whose parameter size would have to be the size of the loop result,
-- an unknown size that only exists after the loop has run. Futhark rejects this
-- with "Causality check"; today it is accepted.
-- ==
-- error: S003|[Cc]ausality

def main (n: i64) : []i64 =
  ([0] ++) <| loop (acc: []i64) = [] for i < n do acc ++ acc ++ [i]
