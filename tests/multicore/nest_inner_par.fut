-- Maps with parallelism inside: the maps, reductions and scans of the
-- body are parallel loops nested in the map's parallel loop, split while
-- the map leaves threads idle (one row) and run whole per row otherwise
-- (many rows). Both give the same results.
-- ==
-- entry: row_sums
-- input { 1i64 300000i64 } output { 3599988i64 1i64 }
-- input { 3i64 100000i64 } output { 3599956i64 3i64 }
-- input { 50000i64 7i64 } output { 4199988i64 50000i64 }
-- input { 0i64 5i64 } output { 0i64 0i64 }
-- input { 4i64 0i64 } output { 0i64 4i64 }

def table (n: i64) (m: i64) : [n][m]i64 =
  tabulate_2d n m (\i j -> (i * 7 + j) % 13)

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

entry row_sums (n: i64) (m: i64) : (i64, i64) =
  let ss = map (\r -> i64.sum (map (\x -> x * 2) r)) (table n m)
  in (i64.sum ss, length ss)

-- ==
-- entry: row_maps
-- input { 1i64 300000i64 } output { 2876365023i64 }
-- input { 3i64 100000i64 } output { 2876388291i64 }
-- input { 50000i64 7i64 } output { 3357226850i64 }
-- input { 0i64 5i64 } output { 0i64 }
-- input { 4i64 0i64 } output { 0i64 }

entry row_maps (n: i64) (m: i64) : i64 =
  weighted (flatten (map (\r -> map (\x -> x * 3 + 1) r) (table n m)))

-- ==
-- entry: row_scans
-- input { 1i64 300000i64 } output { 136300294525170i64 }
-- input { 3i64 100000i64 } output { 45454304104152i64 }
-- input { 50000i64 7i64 } output { 4240567536i64 }
-- input { 0i64 5i64 } output { 0i64 }
-- input { 4i64 0i64 } output { 0i64 }

entry row_scans (n: i64) (m: i64) : i64 =
  weighted (flatten (map (\r -> scan (+) 0 r) (table n m)))

-- ==
-- entry: sum_then_map
-- input { 1i64 300000i64 } output { 2270821947i64 }
-- input { 3i64 100000i64 } output { 1665192564i64 }
-- input { 50000i64 7i64 } output { 1902936712i64 }

entry sum_then_map (n: i64) (m: i64) : i64 =
  weighted (flatten (map (\r -> let s = i64.sum r in map (\x -> x + s % 11) r) (table n m)))
