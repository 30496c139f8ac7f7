-- Map-of-scan nests become one segmented scan over the [n][m] space when
-- the outer map leaves threads idle: each chunk scans the parts of rows it
-- covers, and a row begun in an earlier chunk has the totals of its
-- earlier parts added, in order, so a non-commutative operator ("the last
-- non-zero element") gives the sequential answer. With a row or more per
-- thread the outer map alone is parallel. Few long rows, many short rows,
-- empty rows and no rows. The checksums weight every element by its
-- position, so an element out of place changes them.
-- ==
-- entry: sums
-- input { 1i64 100001i64 } output { -2219855375i64 1i64 }
-- input { 3i64 50000i64 } output { -323737600i64 3i64 }
-- input { 100001i64 3i64 } output { -33829i64 100001i64 }
-- input { 4i64 0i64 } output { 0i64 4i64 }
-- input { 0i64 4i64 } output { 0i64 0i64 }

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

-- The data is made sequentially, so that it is not fused into the nest.
def data (n: i64) (m: i64) : [n][m]i64 =
  #[sequential] tabulate_2d n m (\i j -> (i * 7 + j) % 23 - 11)

entry sums (n: i64) (m: i64) : (i64, i64) =
  let yss = map (\xs -> scan (+) 0 xs) (data n m)
  in (weighted (flatten yss), length yss)

-- ==
-- entry: last_nonzero
-- input { 1i64 100001i64 } output { 2426323480780i64 1i64 }
-- input { 2i64 30001i64 } output { 1830765969657i64 2i64 }
-- input { 50001i64 4i64 } output { 197025222141376i64 50001i64 }

entry last_nonzero (n: i64) (m: i64) : (i64, i64) =
  let xss = #[sequential] tabulate_2d n m (\i j -> if (i + j * 3) % 4099 == 0 then i * 100000 + j + 1 else 0)
  let yss = map (\xs -> scan (\a b -> if b == 0 then a else b) 0 xs) xss
  in (weighted (flatten yss), length yss)

-- A map fused into the scan, using a value of the row.
-- ==
-- entry: scaled
-- input { [[1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, 8i64, 9i64, 10i64, 11i64, 12i64, 13i64]] [2i64] }
-- output { [[2i64, 6i64, 12i64, 20i64, 30i64, 42i64, 56i64, 72i64, 90i64, 110i64, 132i64, 156i64, 182i64]] }
-- input { [[1i64, -2i64, 3i64], [4i64, 5i64, -6i64]] [3i64, -1i64] }
-- output { [[3i64, -3i64, 6i64], [-4i64, -9i64, -3i64]] }
-- input { empty([0][5]i64) empty([0]i64) } output { empty([0][5]i64) }

entry scaled [n] [m] (xss: [n][m]i64) (cs: [n]i64) : [n][m]i64 =
  map2 (\xs c -> scan (+) 0 (map (* c) xs)) xss cs

-- A maximum over floats.
-- ==
-- entry: running_max
-- input { [[0.5, -1.0, 2.5, 2.0, 7.25, 1.0, 3.0, 8.5, -2.0, 0.0]] }
-- output { [[0.5, 0.5, 2.5, 2.5, 7.25, 7.25, 7.25, 8.5, 8.5, 8.5]] }

entry running_max [n] [m] (xss: [n][m]f64) : [n][m]f64 =
  map (\xs -> scan f64.max (-f64.inf) xs) xss

-- A scan and a reduction of each row in one screma: the row totals of the
-- two are combined per row, the scan's also offsetting later parts.
-- ==
-- entry: scan_and_max
-- input { 1i64 100001i64 } output { -2219855375i64 11i64 }
-- input { 3i64 40001i64 } output { -256237694i64 66i64 }
-- input { 30001i64 5i64 } output { -25986i64 53669662i64 }
-- input { 2i64 0i64 } output { 0i64 -9223372036854775808i64 }

entry scan_and_max (n: i64) (m: i64) : (i64, i64) =
  let (yss, ms) = unzip (map (\xs -> (scan (+) 0 xs, i64.maximum xs)) (data n m))
  in (weighted (flatten yss), weighted ms)
