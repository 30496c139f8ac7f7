-- The accepted variant of `err_let_size_unused.fut`: the pattern's type
-- uses the size.
-- ==
-- input { [1, -2, 3] } output { 4i64 }

def main (xs: []i32) : i64 =
  let [k] (ys: [k]i32) = filter (> 0) xs
  in k + length ys
