-- Found by `fut dev --fuzz` (seeds 149, 185 and 302, IR backend): the
-- simplifier rewrote `(iota n)[i]` to `i` and `(replicate n x)[i]` to `x`
-- even where `i` could be out of bounds, so the IR-based backends returned a
-- value where the index must fail. The rewrite is now made only where the
-- index is known to be in bounds; the in-range inputs check that the values
-- are still right.
-- ==
-- entry: iota_index
-- input { 3i64 2i64 } output { 2i64 }
-- input { 3i64 3i64 } error: out of bounds
-- input { 3i64 -1i64 } error: out of bounds
-- input { 0i64 0i64 } error: out of bounds

-- ==
-- entry: replicate_index
-- input { 3i64 0i64 7i32 } output { 7i32 }
-- input { 3i64 3i64 7i32 } error: out of bounds
-- input { 3i64 -2i64 7i32 } error: out of bounds

-- ==
-- entry: replicate_rows_index
-- input { 2i64 1i64 [4, 5, 6] 2i64 } output { 6i32 }
-- input { 2i64 2i64 [4, 5, 6] 0i64 } error: out of bounds
-- input { 2i64 1i64 [4, 5, 6] 3i64 } error: out of bounds

-- ==
-- entry: loop_past_the_end
-- input { 3i64 3i64 } output { 3i64 }
-- input { 3i64 4i64 } error: out of bounds

-- ==
-- entry: map_past_the_end
-- input { 3i64 3i64 } output { [1i64, 2i64, 3i64] }
-- input { 3i64 4i64 } error: out of bounds

entry iota_index (n: i64) (i: i64) : i64 = (iota n)[i]

entry replicate_index (n: i64) (i: i64) (x: i32) : i32 = (replicate n x)[i]

entry replicate_rows_index [m] (n: i64) (i: i64) (xs: [m]i32) (j: i64) : i32 =
  (replicate n xs)[i, j]

-- The loop runs `k` times over an array of `n` elements.
entry loop_past_the_end (n: i64) (k: i64) : i64 =
  loop s = 0 for i < k do s + (iota n)[i]

-- The map runs over `k` indices of an array of `n` elements.
entry map_past_the_end (n: i64) (k: i64) : []i64 =
  map (\i -> (replicate n 1)[i] + i) (iota k)
