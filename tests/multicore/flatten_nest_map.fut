-- Perfect map-of-map nests become one segmented map over the [n][m] space,
-- chunked over the n * m points: few long rows, many short rows, rows of
-- arrays, and empty spaces. The checksums weight every element by its
-- position, so a row or element out of place changes them.
-- ==
-- entry: squares
-- input { 3i64 100001i64 } output { 32805228387i64 3i64 300003i64 }
-- input { 100001i64 3i64 } output { 6285386167000032109i64 100001i64 300003i64 }
-- input { 7i64 1i64 } output { 26096i64 7i64 7i64 }
-- input { 0i64 5i64 } output { 0i64 0i64 0i64 }
-- input { 4i64 0i64 } output { 0i64 4i64 0i64 }

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

entry squares (n: i64) (m: i64) : (i64, i64, i64) =
  let xss = tabulate_2d n m (\i j -> i * 7 + j % 13)
  let yss = map (\xs -> map (\x -> x * x + 1) xs) xss
  in (weighted (flatten yss), length yss, i64.sum (map length yss))

-- ==
-- entry: indexed_rows
-- input { 5i64 40000i64 } output { -53795255790800293i64 -1599760001i64 }
-- input { 40000i64 5i64 } output { 6059009128233i64 199979i64 }

entry indexed_rows (n: i64) (m: i64) : (i64, i64) =
  let xss = tabulate_2d n m (\i j -> i - j)
  let c = iota m
  let yss = map2 (\i xs -> map2 (\x k -> x * k + i) xs c) (iota n) xss
  in (weighted (flatten yss), yss[n - 1, m - 1])

-- ==
-- entry: pairs
-- input { 4i64 30000i64 } output { 909280546335i64 2727570988450i64 4i64 }
-- input { 30000i64 4i64 } output { 2731702865521i64 8184144192894i64 30000i64 }

entry pairs (n: i64) (m: i64) : (i64, i64, i64) =
  let xss = tabulate_2d n m (\i j -> i * 3 + j)
  let (as, bs) = unzip (map (\xs -> unzip (map (\x -> (x + 1, [x, 2 * x])) xs)) xss)
  in (weighted (flatten as), weighted (flatten (flatten bs)), length bs)

-- ==
-- entry: offset_rows
-- input { 3i64 100001i64 } output { 138031370855i64 30i64 }
-- input { 100001i64 3i64 } output { 8705826586100040884i64 1100002i64 }

entry offset_rows (n: i64) (m: i64) : (i64, i64) =
  let xss = tabulate_2d n m (\i j -> i * 11 + j % 29)
  let corner = xss[n - 1, m - 1]
  let yss = map2 (\xs i -> let r = i * 5 + corner in map (\x -> x * r) xs) xss (iota n)
  in (weighted (flatten yss), corner)
