-- A loop parameter declared of size `n` whose body keeps that size; the result has the
-- declared size.
-- ==
-- input { [1, 2, 3] } output { [8, 16, 24] }

def main [n] (xs: [n]i32) : [n]i32 =
  let r = loop (acc: [n]i32) = xs for i < 3 do map2 (+) acc acc
  in zip r xs |> map (.0)
