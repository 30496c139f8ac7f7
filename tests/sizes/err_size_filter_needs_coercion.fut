-- The result of filter has an unknown size; using it at [n] needs :>.
-- ==
-- error: S003

def main [n] (xs: [n]i32) : [n]i32 =
  let ys: [n]i32 = filter (> 0) xs
  in ys
