-- zip/unzip for two to five arrays.
-- ==
-- entry: z2
-- input { [1, 2] [true, false] } output { [1, 2] [true, false] [2, 3] }
-- input { empty([0]i32) empty([0]bool) } output { empty([0]i32) empty([0]bool) empty([0]i32) }

-- ==
-- entry: z3
-- input { [1, 2] [3.0, 4.0] [5i64, 6i64] } output { [1, 2] [3.0, 4.0] [5i64, 6i64] [9.0, 12.0] }

-- ==
-- entry: z4
-- input { [1, 2] [3, 4] [5, 6] [7, 8] } output { [16, 20] [1, 2] [3, 4] [5, 6] [7, 8] }

-- ==
-- entry: z5
-- input { [1] [2] [3] [4] [5] } output { [5] [4] [3] [2] [1] }

-- ==
-- entry: zip_mismatch
-- input { [1, 2] [1, 2, 3] } error: Size mismatch

entry z2 [n] (xs: [n]i32) (ys: [n]bool): ([n]i32, [n]bool, [n]i32) =
  let (a, b) = unzip (zip xs ys)
  let (c, _) = unzip2 (zip2 (map (+ 1) xs) ys)
  in (a, b, c)

entry z3 [n] (xs: [n]i32) (ys: [n]f64) (zs: [n]i64): ([n]i32, [n]f64, [n]i64, [n]f64) =
  let t = zip3 xs ys zs
  let (a, b, c) = unzip3 t
  in (a, b, c, map (\(x, y, z) -> f64.i32 x + y + f64.i64 z) t)

entry z4 [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32): ([n]i32, [n]i32, [n]i32, [n]i32, [n]i32) =
  let t = zip4 a b c d
  let (p, q, r, s) = unzip4 t
  in (map (\(w, x, y, z) -> w + x + y + z) t, p, q, r, s)

entry z5 [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32): ([n]i32, [n]i32, [n]i32, [n]i32, [n]i32) =
  let (p, q, r, s, t) = unzip5 (zip5 e d c b a)
  in (p, q, r, s, t)

entry zip_mismatch [n] [m] (xs: [n]i32) (ys: [m]i32): [n]i32 =
  map (\(x, y) -> x + y) (zip xs (ys :> [n]i32))
