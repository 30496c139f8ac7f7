-- The adjoint of a gather in a map over many elements: an accumulator
-- updated in a segmented map, each chunk into partial accumulators that are
-- then combined with the operator.
-- ==
-- input { 100000i64 } output { 20000.0 20000.0 10 }

entry main (n: i64) : (f64, f64, i64) =
  let xs = replicate 10 1.0f64
  let f (xs: [10]f64) = map (\i -> xs[i % 10] * 2) (iota n)
  let d = vjp f xs (replicate n 1.0)
  in (f64.minimum d, f64.maximum d, length d)
