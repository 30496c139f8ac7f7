-- Maps whose bodies hold parallel operations but are no perfect nest:
-- with fewer rows than threads the map runs sequentially and its body's
-- operations in parallel (what distributing the map over its body, and
-- interchanging it with a loop, gives); with many rows the map is parallel
-- and its body sequential. Both versions give the same results.
-- ==
-- entry: map_and_sum
-- input { 1i64 200000i64 } output { 15531326706i64 29797570i64 1i64 }
-- input { 3i64 100000i64 } output { 23607430118i64 91791810i64 3i64 }
-- input { 100000i64 3i64 } output { 22717523170737i64 22757228478600i64 100000i64 }
-- input { 0i64 4i64 } output { 0i64 0i64 0i64 }

def weighted [k] (xs: [k]i64) : i64 =
  i64.sum (map2 (*) xs (map (\i -> i % 1009 + 1) (iota k)))

entry map_and_sum (n: i64) (m: i64) : (i64, i64, i64) =
  let xss = tabulate_2d n m (\i j -> i + j % 101)
  let (yss, ss) =
    unzip (map (\xs ->
                  let ys = map (\x -> x * 3 - 1) xs
                  let s = i64.sum ys
                  in (map (\y -> y + s % 7) ys, s))
               xss)
  in (weighted (flatten yss), weighted ss, length ss)

-- ==
-- entry: loop_of_maps
-- input { 2i64 100000i64 5i64 } output { 257418882246i64 2i64 }
-- input { 100000i64 2i64 5i64 } output { 50100329931725i64 100000i64 }
-- input { 2i64 3i64 0i64 } output { 55i64 2i64 }

entry loop_of_maps (n: i64) (m: i64) (k: i64) : (i64, i64) =
  let xss = tabulate_2d n m (\i j -> i * 2 + j % 19)
  let yss = map (\xs -> loop xs for _i < k do map (\x -> (x * 3 + 1) % 1000003) xs) xss
  in (weighted (flatten yss), length yss)

-- ==
-- entry: scan_rows
-- input { 2i64 100000i64 } output { 55584431346593i64 2i64 }
-- input { 100000i64 2i64 } output { 1664928838i64 100000i64 }

entry scan_rows (n: i64) (m: i64) : (i64, i64) =
  let xss = tabulate_2d n m (\i j -> (i + j) % 23)
  let yss = map (\xs -> scan (+) 0 xs) xss
  in (weighted (flatten yss), length yss)
