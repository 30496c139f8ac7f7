-- A lambda may be the last argument of an application without
-- parentheses, as in `tabulate n \i -> ...`; its body extends as far to
-- the right as a lambda's body always does. Futhark's own AD tests (the
-- flatmap ones) write Jacobians this way, also after `<|` and inside `jvp`
-- seeds.
-- ==
-- entry: squares
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }

-- ==
-- entry: grid
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }

-- ==
-- entry: jacobian
-- input { [1.0, 2.0, 3.0] }
-- output { [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]] }

entry squares (n: i64) = tabulate n \i -> i * i

entry grid (n: i64) (m: i64) = tabulate_2d n m \i j -> i * 10 + j

entry jacobian [n] (xs: [n]f64) =
  transpose
  <| tabulate n \i ->
       jvp (map \x -> x * x) xs (replicate n 0 with [i] = 1)
