-- Loop parameters with type annotations, including an array size.
-- ==
-- input { [1, 2, 3] 3 } output { [8, 16, 24] }

def main [n] (xs: [n]i32) (k: i32) : [n]i32 =
  loop (acc: [n]i32) = xs for _i < k do map (* 2) acc
