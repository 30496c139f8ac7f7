-- map2 ... map5 apply a function elementwise to several arrays.
-- ==
-- entry: m2
-- input { [1, 2, 3] [10, 20, 30] } output { [11, 22, 33] }
-- input { empty([0]i32) empty([0]i32) } output { empty([0]i32) }

-- ==
-- entry: m3
-- input { [1, 2] [3, 4] [5, 6] } output { [8, 14] }

-- ==
-- entry: m4
-- input { [1, 2] [3, 4] [5, 6] [7, 8] } output { [-14, -16] }

-- ==
-- entry: m5
-- input { [1.0, 2.0] [3.0, 4.0] [5.0, 6.0] [7.0, 8.0] [true, false] }
-- output { [16.0, -20.0] }

entry m2 (xs: []i32) (ys: []i32): []i32 = map2 (+) xs ys

entry m3 [n] (xs: [n]i32) (ys: [n]i32) (zs: [n]i32): [n]i32 = map3 (\x y z -> x * y + z) xs ys zs

entry m4 [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32): [n]i32 =
  map4 (\x y z w -> x - y - z - w) a b c d

entry m5 [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) (d: [n]f64) (e: [n]bool): [n]f64 =
  map5 (\x y z w p -> if p then x + y + z + w else -(x + y + z + w)) a b c d e
