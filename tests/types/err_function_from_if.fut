-- A function may not be returned from an if.
-- ==
-- error: T007

def main (b: bool) (x: i32) =
  let f = if b then (\y -> y + 1) else (\y -> y - 1)
  in f x
