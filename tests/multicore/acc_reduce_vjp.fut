-- Reverse-mode AD of a map reading a free array at computed indices and
-- scaling by a free scalar: the array's adjoint is an accumulator every
-- iteration updates, the scalar's adjoint a sum over the iterations, so
-- the adjoint map both updates an accumulator and reduces. It runs as one
-- parallel loop: with few elements and many iterations (m = 4) each chunk
-- updates its own copy of the accumulator; with distinct indices into a
-- larger accumulator (m = 100000) the updates are atomic; in both, each
-- chunk sums its share of the scalar's adjoint.
-- ==
-- input { 100000i64 4i64 1i64 } output { 450000.0 0.0 225000.0 3i64 350000.0 }
-- input { 6i64 4i64 1i64 } output { 21.0 0.0 6.0 3i64 15.0 }
-- input { 1000i64 100000i64 97i64 } output { 145354500.0 0.0 290709.0 999i64 3131630401500.0 }
-- input { 3i64 10i64 97i64 } output { 33.0 0.0 12.0 2i64 65.0 }

def weighted [m] (is: []i64) (xs: [m]f64, c: f64) : f64 =
  f64.sum (map (\i -> if i >= 0 && i < m then c * xs[i] * xs[i] else 0) is)

-- xs[j] = j, c = 1.5 and indices k * stride % m: the gradient of xs is
-- 2 c j times the number of k with index j, that of c the sum of the
-- squares read. The sum of the first, its first element, the element at
-- the last index, how many elements are not zero, and the second.
entry main (n: i64) (m: i64) (stride: i64) : (f64, f64, f64, i64, f64) =
  let xs = map f64.i64 (iota m)
  let is = map (\k -> k * stride % m) (iota n)
  let (g, gc) = vjp (weighted is) (xs, 1.5) 1.0
  in (f64.sum g, g[0], g[is[n - 1]], i64.sum (map (\x -> if x != 0 then 1 else 0) g), gc)
