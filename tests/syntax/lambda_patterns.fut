-- Lambdas with tuple, record, annotated and wildcard parameter patterns.
-- ==
-- input { [1, 2] [10, 20] } output { [11, 22] [10, 40] [1, 2] [10, 20] }

def main (xs: []i32) (ys: []i32) : ([]i32, []i32, []i32, []i32) =
  let a = map (\(x, y) -> x + y) (zip xs ys)
  let b = map (\{p, q} -> p * q) (map2 (\x y -> {p = x, q = y}) xs ys)
  let c = map (\(x: i32) : i32 -> x) xs
  let d = map2 (\_ y -> y) xs ys
  in (a, b, c, d)
