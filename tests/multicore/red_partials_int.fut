-- Integer reductions lowered with several partial results: sums (with
-- wrap-around), products, minima, maxima and the bitwise operations, over
-- lengths around the number of partials.
-- ==
-- entry: ints
-- input { empty([0]i32) } output { 0i32 1i32 2147483647i32 -2147483648i32 -1i32 0i32 0i32 }
-- input { [5i32] } output { 5i32 5i32 5i32 5i32 5i32 5i32 5i32 }
-- input { [5i32, 3, 6] } output { 14i32 90i32 3i32 6i32 0i32 7i32 0i32 }
-- input { [5i32, 3, 6, 12] } output { 26i32 1080i32 3i32 12i32 0i32 15i32 12i32 }
-- input { [5i32, 3, 6, 12, -7] } output { 19i32 -7560i32 -7i32 12i32 0i32 -1i32 -11i32 }
-- input { [2147483647i32, 1, 1, 1, 1, 1, 1, 1, 1] }
-- output { -2147483641i32 2147483647i32 1i32 2147483647i32 1i32 2147483647i32 2147483647i32 }

entry ints (xs: []i32) : (i32, i32, i32, i32, i32, i32, i32) =
  ( i32.sum xs
  , i32.product xs
  , i32.minimum xs
  , i32.maximum xs
  , reduce (&) (-1) xs
  , reduce (|) 0 xs
  , reduce (^) 0 xs
  )

-- Unsigned bytes: the identity of `&` is all ones, and sums wrap.
-- ==
-- entry: bytes
-- input { [200u8, 100, 255, 7, 8] } output { 58u8 0u8 255u8 }
-- input { [255u8, 254, 253] } output { 250u8 252u8 255u8 }

entry bytes (xs: []u8) : (u8, u8, u8) =
  (u8.sum xs, reduce (&) 255 xs, reduce (|) 0 xs)

-- A large sum of products over i64, as a parallel reduction with chunks.
-- ==
-- entry: large
-- input { 100001i64 } output { 5000050000i64 9223372036854775807i64 0i64 }

entry large (n: i64) : (i64, i64, i64) =
  let xs = iota n
  in (i64.sum xs, i64.maximum (map (\x -> x + 9223372036854775807 - 100000) xs), i64.minimum xs)

-- Inner reductions of a map, each a sequential loop: lengths 0, 3, 4, 5
-- and 9.
-- ==
-- entry: rows
-- input { empty([2][0]i64) } output { [0i64, 0i64] [-9223372036854775808i64, -9223372036854775808i64] [0i64, 0i64] }
-- input { [[1i64, 2, 3], [-4i64, 5, 6]] } output { [6i64, 7i64] [3i64, 6i64] [0i64, -1i64] }
-- input { [[1i64, 2, 3, 4], [-4i64, 5, 6, 1]] } output { [10i64, 8i64] [4i64, 6i64] [4i64, -2i64] }
-- input { [[1i64, 2, 3, 4, 5], [-4i64, 5, 6, 1, 9]] } output { [15i64, 17i64] [5i64, 9i64] [1i64, -9i64] }
-- input { [[1i64, 2, 3, 4, 5, 6, 7, 8, 9], [9i64, 8, 7, 6, 5, 4, 3, 2, -1]] }
-- output { [45i64, 43i64] [9i64, 9i64] [1i64, -1i64] }

entry rows (xss: [][]i64) : ([]i64, []i64, []i64) =
  (map i64.sum xss, map i64.maximum xss, map (reduce (^) 0) xss)
