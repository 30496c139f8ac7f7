-- Second derivatives of products through zero factors: the reverse rule
-- of `*` (reductions and histograms) is written so that differentiating
-- it again is exact. For f = Π x, H[i][j] = Π_{k ≠ i, j} x[k] (i ≠ j).
-- At [0.5, 0, 3] along [0, 1, 0]: [3, 0, 0.5]; at [0, 0, 3] along
-- [1, 0, 0]: [0, 3, 0] (two zeros); at [2, 0.5, 3] along [1, 1, 0]:
-- [x2, x2, x1 + x0] = [3, 3, 2.5].
-- ==
-- entry: fwd_rev rev_rev hist_fwd_rev hist_rev_rev
-- input { [0.5, 0.0, 3.0] [0.0, 1.0, 0.0] } output { [3.0, 0.0, 0.5] }
-- input { [0.0, 0.0, 3.0] [1.0, 0.0, 0.0] } output { [0.0, 3.0, 0.0] }
-- input { [2.0, 0.5, 3.0] [1.0, 1.0, 0.0] } output { [3.0, 3.0, 2.5] }

def prod (x: []f64) : f64 = reduce (*) 1 x

-- The product as the one bucket of a histogram (with an out-of-bounds
-- update of 7, which must not count).
def hprod [n] (x: [n]f64) : f64 =
  (reduce_by_index [1, 1] (*) 1 (replicate n 0 ++ [5]) (x ++ [7]))[0]

entry fwd_rev (x: []f64) (v: []f64) = jvp (\y -> vjp prod y 1) x v
entry rev_rev (x: []f64) (v: []f64) = vjp (\y -> vjp prod y 1) x v
entry hist_fwd_rev (x: []f64) (v: []f64) = jvp (\y -> vjp hprod y 1) x v
entry hist_rev_rev (x: []f64) (v: []f64) = vjp (\y -> vjp hprod y 1) x v
