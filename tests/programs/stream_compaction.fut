-- Stream compaction and stable splitting with an exclusive prefix sum of flags
-- and `scatter` (out-of-range indices are ignored by `scatter`).
-- ==
-- entry: compact_positive
-- input { [3, -1, 4, -1, 5, -9, 2, 6] }
-- output { [3, 4, 5, 2, 6] }
-- input { [-1, -2, -3] }
-- output { empty([0]i32) }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- input { [7] }
-- output { [7] }
-- input { [0, 1, 0, 2, 0, 3] }
-- output { [1, 2, 3] }

-- ==
-- entry: stable_split
-- input { [3, -1, 4, -1, 5, -9, 2, 6] }
-- output { [4, 2, 6, 3, -1, -1, 5, -9] 3i64 }
-- input { [-1, -2, -3] }
-- output { [-2, -1, -3] 1i64 }
-- input { empty([0]i32) }
-- output { empty([0]i32) 0i64 }
-- input { [7] }
-- output { [7] 0i64 }
-- input { [0, 1, 0, 2, 0, 3] }
-- output { [0, 0, 2, 0, 1, 3] 4i64 }

-- ==
-- entry: compact_indices
-- input { [3, -1, 4, -1, 5, -9, 2, 6] }
-- output { [0i64, 2i64, 4i64, 6i64, 7i64] }
-- input { [-1, -2, -3] }
-- output { empty([0]i64) }
-- input { empty([0]i32) }
-- output { empty([0]i64) }
-- input { [7] }
-- output { [0i64] }
-- input { [0, 1, 0, 2, 0, 3] }
-- output { [1i64, 3i64, 5i64] }

-- Exclusive prefix sum of 0/1 flags gives each kept element its slot.
def offsets [n] (flags: [n]bool) : ([n]i64, i64) =
  let ones = map i64.bool flags
  let incl = scan (+) 0 ones
  let total = if n == 0 then 0 else incl[n - 1]
  in (map2 (-) incl ones, total)

def compact [n] 't (p: t -> bool) (xs: [n]t) : []t =
  let flags = map p xs
  let (offs, total) = offsets flags
  let dst = map2 (\f o -> if f then o else -1) flags offs
  in scatter (replicate total xs[0]) dst xs

-- Elements satisfying p first, in order, then the rest, in order.
def split [n] 't (p: t -> bool) (xs: [n]t) : ([n]t, i64) =
  let flags = map p xs
  let (offs_t, total) = offsets flags
  let (offs_f, _) = offsets (map (\f -> !f) flags)
  let dst = map3 (\f ot of -> if f then ot else total + of) flags offs_t offs_f
  in (scatter (copy xs) dst xs, total)

entry compact_positive [n] (xs: [n]i32) : []i32 =
  if n == 0 then [] else compact (> 0) xs

entry stable_split [n] (xs: [n]i32) : ([n]i32, i64) =
  split (\x -> x % 2 == 0) xs

entry compact_indices [n] (xs: [n]i32) : []i64 =
  let keep = map (> 0) xs
  let (offs, total) = offsets keep
  let dst = map2 (\k o -> if k then o else -1) keep offs
  in scatter (replicate total 0) dst (iota n)
