-- Sizes written with constants keep their structure: `[2 * 3]` is the
-- product of 2 and 3, not just 6, so the size parameters of
-- `unflatten : [n * m]t -> [n][m]t` are inferred from it as Futhark does
-- (`unflatten (flatten xss)` with `xss : [2][3]t`, or
-- `unflatten (sized (2 * 2) xs)` as in Futhark's AD test vec/reshape).
-- Constant sizes are still compared by value: `[2 * 3]` and `[6]` agree.
-- ==
-- entry: roundtrip
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 2, 3], [4, 5, 6]] }

-- ==
-- entry: reshape
-- input { [1.0, 2.0, 3.0, 4.0] } output { [[1.0, 2.0], [3.0, 4.0]] }

-- ==
-- entry: by_value
-- input { [1, 2, 3, 4, 5, 6] } output { [1, 2, 3, 4, 5, 6] }

-- ==
-- entry: jacobian
-- input { [1.0, 2.0, 3.0, 4.0] }
-- output { [[[1.0, 0.0], [0.0, 0.0]], [[0.0, 1.0], [0.0, 0.0]],
--           [[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]] }

entry roundtrip (xss: [2][3]i32) = unflatten (flatten xss)

entry reshape (xs: []f64) = unflatten (sized (2 * 2) xs)

entry by_value (xs: [6]i32) : [2 * 3]i32 = xs

entry jacobian (xs: []f64) =
  map (\i -> jvp (\ys -> unflatten (sized (2 * 2) ys)) xs
                 (map (\j -> f64.bool (i == j)) (indices xs)))
      (indices xs)
