-- Chained field access on nested tuples and records.
-- ==
-- input { 1 } output { 3 4 }

def main (x: i32) : (i32, i32) =
  let t = ((x, x + 1), {a = (x + 2, x + 3)})
  in (t.1.a.0, t.1.a.1)
