-- tabulate, tabulate_2d and tabulate_3d.
-- ==
-- entry: t1
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }
-- input { 0i64 } output { empty([0]i64) }

-- ==
-- entry: t2
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }
-- input { 2i64 0i64 } output { empty([2][0]i64) }

-- ==
-- entry: t3
-- input { 2i64 2i64 2i64 } output { [[[0i64, 1i64], [10i64, 11i64]], [[100i64, 101i64], [110i64, 111i64]]] }

entry t1 (n: i64): []i64 = tabulate n (\i -> i * i)

entry t2 (n: i64) (m: i64): [][]i64 = tabulate_2d n m (\i j -> 10 * i + j)

entry t3 (n: i64) (m: i64) (l: i64): [][][]i64 = tabulate_3d n m l (\i j k -> 100 * i + 10 * j + k)
