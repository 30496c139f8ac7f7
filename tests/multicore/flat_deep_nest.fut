-- Perfect nests of three levels (two maps around a map, a reduction or a
-- scan) become one segmented operation over the [n][m][k] space when the
-- outer map leaves threads idle: the rows are the n * m combinations of
-- the two maps' indices, and each chunk covers a run of points of them.
-- With a row of the outer map or more per thread, the outer map alone is
-- parallel. The checksums weight every element by its position.
-- ==
-- entry: sums
-- input { 1i64 3i64 40001i64 } output { -44i64 3i64 }
-- input { 2i64 5i64 10001i64 } output { 285i64 10i64 }
-- input { 20001i64 2i64 3i64 } output { -18925i64 40002i64 }
-- input { 1i64 0i64 7i64 } output { 0i64 0i64 }
-- input { 2i64 3i64 0i64 } output { 0i64 6i64 }

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

-- The data is made sequentially, so that it is not fused into the nest.
def data (n: i64) (m: i64) (k: i64) : [n][m][k]i64 =
  #[sequential] tabulate_3d n m k (\i j l -> (i * 13 + j * 7 + l) % 31 - 15)

entry sums (n: i64) (m: i64) (k: i64) : (i64, i64) =
  let rss = map (\xss -> map (\xs -> i64.sum xs) xss) (data n m k)
  in (weighted (flatten rss), n * m)

-- An index space with scalar work at each level.
-- ==
-- entry: indices
-- input { 1i64 3i64 40001i64 } output { 880136716i64 }
-- input { 3i64 4i64 5i64 } output { 2664980i64 }
-- input { 0i64 4i64 5i64 } output { 0i64 }

entry indices (n: i64) (m: i64) (k: i64) : i64 =
  let r = map (\i -> map (\j -> map (\l -> i * 1000 + j * 10 + l % 10) (iota k)) (iota m)) (iota n)
  in weighted (flatten_3d r)

def compose (a1: i64, b1: i64) (a2: i64, b2: i64) : (i64, i64) =
  (a1 * a2, b1 * a2 + b2)

-- A non-commutative reduction (composing affine maps) over rows split
-- between chunks.
-- ==
-- entry: affine
-- input { 1i64 2i64 50001i64 } output { 1432805172988020749i64 -7445588875645313984i64 }
-- input { 4i64 3i64 7i64 } output { 53550i64 158344i64 }

entry affine (n: i64) (m: i64) (k: i64) : (i64, i64) =
  let xsss = #[sequential] tabulate_3d n m k (\i j l -> ((i + j + l) % 3 * 2 + 1, (i * 5 + j * 3 + l) % 11))
  let rss = map (\xss -> map (\xs -> reduce compose (1, 0) xs) xss) xsss
  let (as, bs) = unzip (flatten rss)
  in (weighted as, weighted bs)

-- Scans at the third level.
-- ==
-- entry: scans
-- input { 1i64 3i64 40001i64 } output { -735596041i64 }
-- input { 5i64 2i64 9i64 } output { 25830i64 }

entry scans (n: i64) (m: i64) (k: i64) : i64 =
  let ysss = map (\xss -> map (\xs -> scan (+) 0 xs) xss) (data n m k)
  in weighted (flatten_3d ysss)
