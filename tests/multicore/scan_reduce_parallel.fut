-- Scans and reductions over enough elements to be split into chunks: the
-- chunks' partial results are combined in order, so non-commutative
-- operators (here: the last non-zero element, and matrix-free affine
-- composition) give the sequential answer.
-- ==
-- input { 200000i64 } output { 20000100000i64 199999i64 199999i64 true 200000i64 }

def last_nonzero (a: i64) (b: i64) = if b != 0 then b else a

entry main (n: i64) : (i64, i64, i64, bool, i64) =
  let xs = map (+1) (iota n)
  let ps = scan (+) 0 xs
  let ln = reduce last_nonzero 0 (map (\i -> if i % 2 == 1 then i else 0) (iota n))
  let ls = scan last_nonzero 0 (map (\i -> if i % 2 == 1 then i else 0) (iota n))
  let sorted = and (map2 (<=) (init ps) (tail ps))
  in (ps[n-1], ln, ls[n-1], sorted, i64.sum (map (const 1) ps))
