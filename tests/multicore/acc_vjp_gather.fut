-- Reverse-mode AD of a map reading a free array at computed indices: the
-- free array's adjoint is an accumulator that every iteration updates.
-- With few elements and many iterations (m = 4) each chunk updates its own
-- copy of the accumulator, combined afterwards; with distinct indices into
-- an accumulator much larger than the map (m = 100000) the iterations
-- update the shared one atomically.
-- ==
-- input { 100000i64 4i64 1i64 } output { 300000.0 0.0 150000.0 3i64 }
-- input { 6i64 4i64 1i64 } output { 14.0 0.0 4.0 3i64 }
-- input { 1000i64 100000i64 97i64 } output { 96903000.0 0.0 193806.0 999i64 }
-- input { 3i64 10i64 97i64 } output { 22.0 0.0 8.0 2i64 }

def sum_squares [m] (is: []i64) (xs: [m]f64) : f64 =
  f64.sum (map (\i -> if i >= 0 && i < m then xs[i] * xs[i] else 0) is)

-- xs[j] = j and indices k * stride % m: the gradient is 2 * j times the
-- number of k with index j. Its sum, first element, the element at the
-- last index, and how many elements are not zero.
entry main (n: i64) (m: i64) (stride: i64) : (f64, f64, f64, i64) =
  let xs = map f64.i64 (iota m)
  let is = map (\k -> k * stride % m) (iota n)
  let g = vjp (sum_squares is) xs 1.0
  in (f64.sum g, g[0], g[is[n - 1]], i64.sum (map (\x -> if x != 0 then 1 else 0) g))
