-- Segmented scans and reductions over flat arrays with start flags, segment
-- ids built from a shape array with `scatter` and `scan`, and a row-wise
-- prefix sum through `flatten`/`unflatten`.
-- ==
-- entry: segmented_scan
-- input { [true, false, false, true, false, true] [1, 2, 3, 4, 5, 6] }
-- output { [1, 3, 6, 4, 9, 6] }
-- input { [false, false, true] [5, 5, 5] }
-- output { [5, 10, 5] }
-- input { [true] [9] }
-- output { [9] }

-- ==
-- entry: segment_sums
-- input { [2i64, 0i64, 3i64, 1i64] [1, 2, 3, 4, 5, 6] }
-- output { [3, 0, 12, 6] }
-- input { [3i64] [1, 1, 1] }
-- output { [3] }
-- input { [1i64, 1i64, 1i64, 1i64] [4, 3, 2, 1] }
-- output { [4, 3, 2, 1] }

-- ==
-- entry: row_prefix
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 3, 6], [4, 9, 15]] }
-- input { [[7], [8], [9]] }
-- output { [[7], [8], [9]] }
-- input { [[1, -1, 1, -1]] }
-- output { [[1, 0, 1, 0]] }

-- ==
-- entry: repeat_indices
-- input { [2i64, 0i64, 3i64, 1i64] }
-- output { [0i64, 0i64, 2i64, 2i64, 2i64, 3i64] }
-- input { [3i64] }
-- output { [0i64, 0i64, 0i64] }
-- input { [1i64, 1i64, 1i64, 1i64] }
-- output { [0i64, 1i64, 2i64, 3i64] }

-- Segmented operations on flat arrays, in the style of flattened nested
-- parallelism: a flag array marks where segments start.

def segmented_scan_ [n] 't (op: t -> t -> t) (ne: t) (flags: [n]bool) (xs: [n]t) : [n]t =
  let pairs =
    scan (\(fa, a) (fb, b) -> (fa || fb, if fb then b else a `op` b))
         (false, ne) (zip flags xs)
  in map (.1) pairs

-- Flags from segment lengths; empty segments mark nothing.
def flags_from_shape [k] (n: i64) (shape: [k]i64) : [n]bool =
  let starts = map2 (-) (scan (+) 0 shape) shape
  let is = map2 (\s l -> if l > 0 then s else -1) starts shape
  in scatter (replicate n false) is (replicate k true)

-- For every element, the index of its segment.
def segment_ids [k] (n: i64) (shape: [k]i64) : [n]i64 =
  let starts = map2 (-) (scan (+) 0 shape) shape
  let is = map2 (\s l -> if l > 0 then s else -1) starts shape
  let marks = scatter (replicate n 0) is (iota k)
  in scan i64.max 0 marks

entry segmented_scan [n] (flags: [n]bool) (xs: [n]i32) : [n]i32 =
  segmented_scan_ (+) 0 flags xs

entry segment_sums [k] [n] (shape: [k]i64) (xs: [n]i32) : [k]i32 =
  hist (+) 0 k (segment_ids n shape) xs

-- Prefix sums along each row, by flattening, one segmented scan and unflattening.
entry row_prefix [r] [c] (m: [r][c]i32) : [r][c]i32 =
  let flags = flags_from_shape (r * c) (replicate r c)
  in unflatten (segmented_scan_ (+) 0 flags (flatten m))

-- [2,0,3] gives [0,0,2,2,2].
entry repeat_indices [k] (shape: [k]i64) : []i64 =
  segment_ids (i64.sum shape) shape
