-- Attributes on expressions do not change their value.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] 6 }

def main (xs: []i32) : ([]i32, i32) =
  (#[unsafe] map (+ 1) xs, #[sequential] reduce (+) 0 xs)
