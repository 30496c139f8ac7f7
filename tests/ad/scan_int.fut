-- Reverse mode of scans on integers, differentiated with integer
-- arithmetic as the interpreter does: a product scan (the scalar rule) and
-- a scan of integer affine maps on pairs (the tuple rule).
-- ==
-- entry: product
-- input { [2i64, 3i64, -1i64, 4i64] }
-- output { [-45i64, -32i64, 120i64, -30i64] }

-- ==
-- entry: affine
-- input { [2i64, 3i64, -1i64, 4i64] }
-- output { [-90i64, -80i64, 320i64, -75i64] }

entry product (xs: []i64) = vjp (scan (*) 1) xs (map (+ 1) xs)

entry affine (xs: []i64) =
  let f ys =
    let (a, b) = unzip (scan (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) (zip ys ys))
    in map2 (+) a b
  in vjp f xs (map (+ 1) xs)
