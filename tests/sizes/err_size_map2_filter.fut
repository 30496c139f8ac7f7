-- map2 on arrays whose sizes are not known to be equal needs a coercion.
-- ==
-- error: S003

def main [n] (xs: [n]i32) : [n]i32 =
  map2 (+) xs (filter (> 0) xs)
