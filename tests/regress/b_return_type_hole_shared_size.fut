-- Anonymous sizes (`[]`) in a declared return type are filled in from
-- the body: both components here have the same size `k`, so the caller
-- may use them together (diku-dk/segmented's `expand` relies on this).
-- ==
-- input { 2i64 } output { [0i64, 3i64, 6i64] }

def pair (n: i64) : ([]i64, []i64) =
  let k = n + 1
  in (iota k, map (*2) (iota k))

def main (n: i64) =
  let (a, b) = pair n
  in map2 (+) a b
