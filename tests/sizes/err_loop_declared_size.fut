-- A loop parameter declared of size `n` whose body returns an array of another size.
-- ==
-- error: S003

def main [n] (xs: [n]i32) : [n]i32 =
  loop (acc: [n]i32) = xs for i < 3 do acc ++ [1]
