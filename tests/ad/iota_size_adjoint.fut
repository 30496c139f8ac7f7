-- The length of an iota receives, in reverse mode, the sum of the adjoints
-- of the iota's elements (the rule Futhark's reverse mode applies), while
-- forward mode gives an iota a zero tangent; a replicate's length receives
-- nothing in either mode, its value the sum of the elements' adjoints.
--
-- vjp (\n -> sum (iota n)) n s = s * n
-- vjp (\n -> sum (map (*3) (iota n))) n 1 = 3 * n
-- vjp (\n -> f64.sum (tabulate n f64.i64)) n 1 = n
-- jvp (\n -> sum (iota n)) n 1 = 0
-- vjp (\(n, x) -> sum (replicate n x)) (n, x) 1 = (0, n)
-- ==
-- entry: rev_sum
-- input { 5i64 1i64 } output { 5i64 }
-- input { 4i64 3i64 } output { 12i64 }
-- input { 0i64 1i64 } output { 0i64 }

-- ==
-- entry: rev_scaled
-- input { 6i64 } output { 18i64 }
-- input { 1i64 } output { 3i64 }

-- ==
-- entry: rev_tabulate
-- input { 6i64 } output { 6i64 }
-- input { 0i64 } output { 0i64 }

-- ==
-- entry: fwd_sum
-- input { 5i64 } output { 0i64 }

-- ==
-- entry: rev_replicate
-- input { 4i64 7i64 } output { 0i64 4i64 }

entry rev_sum (n: i64) (s: i64) : i64 =
  vjp (\m -> i64.sum (iota m)) n s

entry rev_scaled (n: i64) : i64 =
  vjp (\m -> i64.sum (map (* 3) (iota m))) n 1

entry rev_tabulate (n: i64) : i64 =
  vjp (\m -> f64.sum (tabulate m f64.i64)) n 1

entry fwd_sum (n: i64) : i64 =
  jvp (\m -> i64.sum (iota m)) n 1

entry rev_replicate (n: i64) (x: i64) : (i64, i64) =
  vjp (\(m, y) -> i64.sum (replicate m y)) (n, x) 1
