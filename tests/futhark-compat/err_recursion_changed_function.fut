-- A recursive function must pass its higher-order arguments on unchanged.
-- ==
-- error: T014

def go (g: i64 -> i64) (n: i64) : i64 =
  if n == 0 then g 0 else go (\x -> g x * 2) (n - 1)

def main (n: i64) = go (+ 1) n
