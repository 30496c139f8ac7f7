-- Maps of histograms (reduce_by_index over each row): the map is parallel
-- with a row or more per thread, and with fewer rows each row's histogram
-- is a segmented histogram of its own (per-chunk partial histograms
-- combined), using the threads the map leaves idle. Few long rows, many
-- short rows, out-of-bounds bins ignored.
-- ==
-- entry: row_hists
-- input { 1i64 200000i64 } output { 6545381i64 14976i64 }
-- input { 3i64 70001i64 } output { 19600068i64 119816i64 }
-- input { 20000i64 9i64 } output { 330587503i64 36147935980i64 }
-- input { 0i64 9i64 } output { 0i64 0i64 }

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

entry row_hists (n: i64) (m: i64) : (i64, i64) =
  let hss =
    map (\i ->
           let bins = map (\j -> if (i + j) % 11 == 3 then -1 else (i * 3 + j * j) % 17) (iota m)
           let vals = map (\j -> (i + j) % 7 + 1) (iota m)
           in hist (+) 0 17 bins vals)
        (iota n)
  let mss =
    map (\i -> reduce_by_index (replicate 5 i64.lowest) i64.max i64.lowest (map (\j -> (i + j) % 6) (iota m)) (map (\j -> (j * 7919) % 1000) (iota m)))
        (iota n)
  in (weighted (flatten hss), weighted (flatten mss))
