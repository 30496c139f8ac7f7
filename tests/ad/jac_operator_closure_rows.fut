-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of reductions
-- and scans over rows of run-time length d whose operator closes over an
-- input value c = x[0]: on each element, a ⊕ b = a + b + c a b
-- (associative, neutral 0).  The operator is written two ways: `ew` as
-- `map2` of the scalar operator (the per-column rules) and `gen` as a map
-- over the indices (the rule for rows of run-time length, and the general
-- reduction rule).  The derivative with respect to x[0] includes the
-- operator's dependence on c, which vjp gives through every column and
-- every application.
--   x = [c] ++ three rows of d; y = reduce ew ++ reduce gen ++ scan ew ++ scan gen
-- (and the same operators in reduce_by_index, entry hist_agrees).
-- The expected Jacobian of the first case agrees with central finite
-- differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, 1.0, -2.0, 0.5, 3.0, 2.0, -1.0] }
-- output { [[4.5, 2.5, 0.0, 3.0, 0.0, 1.875, 0.0],
--           [-1.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0],
--           [4.5, 2.5, 0.0, 3.0, 0.0, 1.875, 0.0],
--           [-1.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
--           [0.5, 1.25, 0.0, 1.5, 0.0, 0.0, 0.0],
--           [-6.0, 0.0, 2.5, 0.0, 0.0, 0.0, 0.0],
--           [4.5, 2.5, 0.0, 3.0, 0.0, 1.875, 0.0],
--           [-1.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
--           [0.5, 1.25, 0.0, 1.5, 0.0, 0.0, 0.0],
--           [-6.0, 0.0, 2.5, 0.0, 0.0, 0.0, 0.0],
--           [4.5, 2.5, 0.0, 3.0, 0.0, 1.875, 0.0],
--           [-1.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, 1.0, -2.0, 0.5, 3.0, 2.0, -1.0] } output { true }
-- input { [1.5, 0.25, -1.0, 2.0] } output { true }
-- input { [-0.75, 1.0, 2.0, 3.0, -1.0, 0.5, 0.25, 2.0, -2.0, 1.5] } output { true }

-- The same operators in reduce_by_index (rows 0 and 2 into bin 0, row 1
-- into bin 1).
-- ==
-- entry: hist_agrees
-- input { [0.5, 1.0, -2.0, 0.5, 3.0, 2.0, -1.0] } output { true }
-- input { [-0.75, 1.0, 2.0, 3.0, -1.0, 0.5, 0.25, 2.0, -2.0, 1.5] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [8 * ((n - 1) / 3)]f64 =
  let c = x[0]
  let d = (n - 1) / 3
  let rows = unflatten (x[1:1 + 3 * d] :> [3 * d]f64)
  let ew (a: [d]f64) (b: [d]f64) = map2 (\p q -> p + q + c * p * q) a b
  let gen (a: [d]f64) (b: [d]f64) = map (\i -> a[i] + b[i] + c * a[i] * b[i]) (iota d)
  let r1 = reduce ew (replicate d 0) rows
  let r2 = reduce gen (replicate d 0) rows
  let s1 = flatten (scan ew (replicate d 0) rows)
  let s2 = flatten (scan gen (replicate d 0) rows)
  in (r1 ++ r2 ++ s1 ++ s2) :> [8 * ((n - 1) / 3)]f64

entry jac [n] (x: [n]f64) : [8 * ((n - 1) / 3)][n]f64 = jacobian (8 * ((n - 1) / 3)) f x
entry agrees [n] (x: [n]f64) : bool = agree (8 * ((n - 1) / 3)) f x

def g [n] (x: [n]f64) : [4 * ((n - 1) / 3)]f64 =
  let c = x[0]
  let d = (n - 1) / 3
  let rows = unflatten (x[1:1 + 3 * d] :> [3 * d]f64)
  let ew (a: [d]f64) (b: [d]f64) = map2 (\p q -> p + q + c * p * q) a b
  let gen (a: [d]f64) (b: [d]f64) = map (\i -> a[i] + b[i] + c * a[i] * b[i]) (iota d)
  let bins = replicate 2 (replicate d 0)
  let h1 = flatten (reduce_by_index (copy bins) ew (replicate d 0) [0, 1, 0] rows)
  let h2 = flatten (reduce_by_index (copy bins) gen (replicate d 0) [0, 1, 0] rows)
  in (h1 ++ h2) :> [4 * ((n - 1) / 3)]f64

entry hist_agrees [n] (x: [n]f64) : bool = agree (4 * ((n - 1) / 3)) g x
