-- Projection sections (.field) and (.field.field), and (.0) on tuples.
-- ==
-- input { [1, 2, 3] } output { [2, 4, 6] [1, 2, 3] [3, 6, 9] }

def main (xs: []i32) : ([]i32, []i32, []i32) =
  let rs = map (\x -> {a = x * 2, b = {c = x * 3}}) xs
  let ts = map (\x -> (x, x + 1)) xs
  in (map (.a) rs, map (.0) ts, map (.b.c) rs)
