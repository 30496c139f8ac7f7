-- A loop parameter may not be a function.
-- ==
-- error: T007

def main (x: i32) =
  let (f, _) = loop (f, i) = ((\y -> y), 0) for _j < 3 do (f, i + 1)
  in f x
