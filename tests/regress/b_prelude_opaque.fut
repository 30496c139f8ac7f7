-- The prelude's `opaque` is the identity function (it only hides its
-- argument from the optimiser); `trace` and `break` are likewise
-- identities for debugging. diku-dk/futhark-benchmarks misc/heston
-- (least_squares.fut) uses `opaque`.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 6i32 7i32 8i32 }

def main (xs: []i32) =
  (i32.sum (opaque xs), trace 7i32, break 8i32)
