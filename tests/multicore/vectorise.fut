-- Loops whose element accesses are affine in the loop's counter: the
-- multicore backend checks their range once before the loop and makes them
-- unchecked inside (docs/multicore.md, "Vectorisation and range checks").
-- Accesses under an `if`, indices out of range and strided views must
-- behave as everywhere else.
-- ==
-- entry: mul
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] } output { [4.0, 10.0, 18.0] }
-- input { empty([0]f64) empty([0]f64) } output { empty([0]f64) }
-- input { [1.0, 2.0] [4.0, 5.0, 6.0] } error: Size mismatch
-- compiled random input { [100000]f64 [100000]f64 }

-- | Element-wise product.
entry mul (xs: []f64) (ys: []f64) : []f64 = map2 (*) xs ys

-- ==
-- entry: add
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] } output { [5.0, 7.0, 9.0] }
-- compiled random input { [100000]f64 [100000]f64 }

-- | Element-wise sum.
entry add (xs: []f64) (ys: []f64) : []f64 = map2 (+) xs ys

-- ==
-- entry: dot
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] } output { 32.0 }
-- input { empty([0]f64) empty([0]f64) } output { 0.0 }
-- compiled random input { [100000]f64 [100000]f64 }

-- | Dot product.
entry dot (xs: []f64) (ys: []f64) : f64 = f64.sum (map2 (*) xs ys)

-- ==
-- entry: shifted
-- input { [1.0, 2.0, 3.0, 4.0] 1i64 } output { [2.0, 3.0, 4.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 2i64 } error: Index \[4\] out of bounds
-- input { [1.0, 2.0, 3.0, 4.0] -1i64 } error: Index \[-1\] out of bounds

-- | The elements from `k` on, as many as the array has less one: an index
-- affine in the map's counter that runs past the end when `k > 1`.
entry shifted (xs: []f64) (k: i64) : []f64 =
  map (\i -> xs[i + k]) (iota (length xs - 1))

-- ==
-- entry: guarded
-- input { [1.0, 2.0, 3.0] } output { [1.0, 3.0, 5.0] }
-- input { [7.0] } output { [7.0] }

-- | Each element plus the one before it: the read of the element before is
-- under an `if`, out of range at the first iteration, which never makes it.
entry guarded (xs: []f64) : []f64 =
  map (\i -> if i > 0 then xs[i] + xs[i - 1] else xs[i]) (indices xs)

-- ==
-- entry: column_sums
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] } output { [9.0, 12.0] }

-- | Sums of the columns: rows read with a stride in the inner loop.
entry column_sums [n] [m] (a: [n][m]f64) : [m]f64 =
  map (\j -> f64.sum (map (\i -> a[i, j]) (iota n))) (iota m)

-- ==
-- entry: scaled_in_place
-- input { [1.0, 2.0, 3.0, 4.0] 3i64 } output { [2.0, 4.0, 6.0, 4.0] }
-- input { [1.0, 2.0] 3i64 } error: Index \[2\] out of bounds

-- | Doubles the first `k` elements in place, in a sequential loop.
entry scaled_in_place (xs: *[]f64) (k: i64) : []f64 =
  loop xs for i < k do xs with [i] = xs[i] * 2

-- ==
-- entry: mul_rounds
-- input { [1.0, 2.0] [3.0, 0.5] } output { [243.0, 0.0625] }
-- compiled random input { [10000]f64 [10000]f64 }

-- | Five rounds of an element-wise product on tiny inputs, a hundred on the
-- benchmark's: the map's loop dominates the call.
entry mul_rounds [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  let rounds = if n < 100 then 5 else 100
  in loop zs = copy xs for _i < rounds do map2 (*) zs ys

-- ==
-- entry: add_rounds
-- input { [1.0, 2.0] [3.0, 0.5] } output { [16.0, 4.5] }
-- compiled random input { [10000]f64 [10000]f64 }

-- | As `mul_rounds`, with sums.
entry add_rounds [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  let rounds = if n < 100 then 5 else 100
  in loop zs = copy xs for _i < rounds do map2 (+) zs ys
