-- A radix sort on u32 keys built from `hist`, `scan` and `scatter`, sorting
-- keys with values; being stable, it also gives an argsort.
-- ==
-- entry: sort
-- input { [170u32, 45u32, 75u32, 90u32, 802u32, 24u32, 2u32, 66u32] }
-- output { [2u32, 24u32, 45u32, 66u32, 75u32, 90u32, 170u32, 802u32] }
-- input { [5u32, 4u32, 3u32, 2u32, 1u32] }
-- output { [1u32, 2u32, 3u32, 4u32, 5u32] }
-- input { empty([0]u32) }
-- output { empty([0]u32) }
-- input { [4294967295u32, 0u32, 2147483648u32, 1u32, 2147483647u32] }
-- output { [0u32, 1u32, 2147483647u32, 2147483648u32, 4294967295u32] }
-- input { [3u32, 1u32, 3u32, 1u32, 2u32] }
-- output { [1u32, 1u32, 2u32, 3u32, 3u32] }

-- ==
-- entry: argsort
-- input { [170u32, 45u32, 75u32, 90u32, 802u32, 24u32, 2u32, 66u32] }
-- output { [6i64, 5i64, 1i64, 7i64, 2i64, 3i64, 0i64, 4i64] }
-- input { [5u32, 4u32, 3u32, 2u32, 1u32] }
-- output { [4i64, 3i64, 2i64, 1i64, 0i64] }
-- input { empty([0]u32) }
-- output { empty([0]i64) }
-- input { [4294967295u32, 0u32, 2147483648u32, 1u32, 2147483647u32] }
-- output { [1i64, 3i64, 4i64, 2i64, 0i64] }
-- input { [3u32, 1u32, 3u32, 1u32, 2u32] }
-- output { [1i64, 3i64, 4i64, 0i64, 2i64] }

-- ==
-- entry: sort_digits
-- input { [170u32, 45u32, 75u32, 90u32, 802u32, 24u32, 2u32, 66u32] 2 }
-- output { [802u32, 2u32, 66u32, 24u32, 170u32, 90u32, 75u32, 45u32] }
-- input { [5u32, 4u32, 3u32, 2u32, 1u32] 2 }
-- output { [1u32, 2u32, 3u32, 4u32, 5u32] }
-- input { empty([0]u32) 2 }
-- output { empty([0]u32) }
-- input { [4294967295u32, 0u32, 2147483648u32, 1u32, 2147483647u32] 2 }
-- output { [0u32, 2147483648u32, 1u32, 4294967295u32, 2147483647u32] }
-- input { [3u32, 1u32, 3u32, 1u32, 2u32] 2 }
-- output { [1u32, 1u32, 2u32, 3u32, 3u32] }

-- Least-significant-digit radix sort, two bits per pass: each pass counts the
-- digits, takes exclusive offsets per digit and scatters stably.
def radix_pass [n] 'v (shift: u32) (keys: [n]u32, vals: [n]v) : ([n]u32, [n]v) =
  let digit (k: u32) = i64.u32 ((k >> shift) & 3)
  let ds = map digit keys
  let counts = hist (+) 0 4 ds (replicate n 1i64)
  let starts = map2 (-) (scan (+) 0 counts) counts
  -- Rank of each element among those with the same digit, by a scan per digit.
  let ranks =
    map (\b -> let fs = map (\d -> i64.bool (d == b)) ds
               in map2 (-) (scan (+) 0 fs) fs)
        (iota 4)
  let dst = map2 (\i d -> starts[d] + ranks[d, i]) (iota n) ds
  in (scatter (copy keys) dst keys, scatter (copy vals) dst vals)

def sort_by_key [n] 'v (passes: i32) (keys: [n]u32) (vals: [n]v) : ([n]u32, [n]v) =
  loop (ks, vs) = (keys, vals) for p < passes do radix_pass (u32.i32 (2 * p)) (ks, vs)

entry sort [n] (xs: [n]u32) : [n]u32 = (sort_by_key 16 xs xs).0

entry argsort [n] (xs: [n]u32) : [n]i64 = (sort_by_key 16 xs (iota n)).1

-- Only the low `passes` digits are looked at (two bits each).
entry sort_digits [n] (xs: [n]u32) (passes: i32) : [n]u32 =
  let (_, vs) = sort_by_key passes (map (& 0xF) xs) xs
  in vs
