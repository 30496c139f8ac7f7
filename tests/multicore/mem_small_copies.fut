-- Rows whose size is known only at run time copied inside a parallel map:
-- a few elements are copied by a loop of reads and writes, more by one
-- copy of the whole row; both give the same rows.
-- ==
-- input { 4i64 3i64 } output { [3.0, 12.0, 21.0, 30.0] }
-- input { 4i64 40i64 } output { [780.0, 2380.0, 3980.0, 5580.0] }

entry main (n: i64) (m: i64) : [n]f64 =
  let xss = tabulate_2d n m (\i j -> f64.i64 (i * m + j))
  let rows = map (\xs -> copy (if xs[0] >= 0 then xs else reverse xs)) xss
  in map f64.sum rows
