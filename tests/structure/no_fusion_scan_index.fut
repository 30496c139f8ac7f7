-- A map that reads a scan's result at another index cannot fuse with the
-- scan: two Scremas remain.
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] [10, 6, 3, 1] }
-- structure { Screma 2 }

def main [n] (xs: [n]i32) : ([n]i32, [n]i32) =
  let s = scan (+) 0 xs
  in (s, map (\i -> s[n - 1 - i]) (iota n))
