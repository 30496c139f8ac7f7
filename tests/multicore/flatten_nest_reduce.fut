-- Map-of-reduce nests become segmented reductions over the [n][m] space:
-- a row split between chunks gets its partials combined in order, so a
-- non-commutative operator (the composition of affine maps) gives the
-- sequential answer. Few long rows, many short rows, empty rows.
-- ==
-- entry: sums
-- input { 3i64 100001i64 } output { 8799878i64 19i64 }
-- input { 100001i64 3i64 } output { 37928525974680i64 600003i64 }
-- input { 5i64 0i64 } output { 0i64 5i64 }
-- input { 0i64 5i64 } output { 0i64 0i64 }

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

entry sums (n: i64) (m: i64) : (i64, i64) =
  let xss = tabulate_2d n m (\i j -> i * 5 + j % 17)
  let ss = map i64.sum xss
  let corner = if n > 0 && m > 0 then xss[n - 1, m - 1] else 0
  in (weighted ss, length ss + corner)

def compose (a1: i64, b1: i64) (a2: i64, b2: i64) : (i64, i64) =
  (a1 * a2, b1 * a2 + b2)

-- ==
-- entry: affine
-- input { 2i64 100000i64 } output { 742302600739632895i64 8157173989066316751i64 12i64 }
-- input { 50000i64 6i64 } output { 226118025i64 12584543729119i64 100004i64 }
-- input { 3i64 0i64 } output { 6i64 0i64 3i64 }

entry affine (n: i64) (m: i64) : (i64, i64, i64) =
  let xss = tabulate_2d n m (\i j -> (if (i + j) % 3 == 0 then 3 else 1, i + j % 11))
  let rs = map (\r -> reduce compose (1, 0) r) xss
  let (as, bs) = unzip rs
  let corner = if n > 0 && m > 0 then xss[n - 1, m - 1].1 else 0
  in (weighted as, weighted bs, length rs + corner)

-- ==
-- entry: sum_and_max
-- input { 4i64 60000i64 } output { 299700000i64 9990i64 36i64 }
-- input { 60000i64 4i64 } output { 60285143260i64 15685116109i64 60008i64 }

entry sum_and_max (n: i64) (m: i64) : (i64, i64, i64) =
  let xss = tabulate_2d n m (\i j -> (i * 13 + j * 7) % 1000)
  let ss = map (\xs -> reduce (\(a, b) (c, d) -> (a + c, i64.max b d)) (0, i64.lowest) (zip xs xs)) xss
  let (s, mx) = unzip ss
  let corner = if n > 0 && m > 0 then xss[n - 1, m - 1] else 0
  in (weighted s, weighted mx, length ss + corner)
