-- reduce with several operators, the empty case and a non-commutative
-- (but associative) operator, whose operand order must be kept.
-- ==
-- entry: sum
-- input { [1, 2, 3, 4] } output { 10 }
-- input { empty([0]i32) } output { 0 }

-- ==
-- entry: prod_max
-- input { [3i64, -2i64, 5i64] } output { -30i64 5i64 }
-- input { empty([0]i64) } output { 1i64 -9223372036854775808i64 }

-- ==
-- entry: compose
-- input { [1i64, 2i64, 3i64] [10i64, 20i64, 30i64] } output { 6i64 150i64 }
-- input { empty([0]i64) empty([0]i64) } output { 1i64 0i64 }

-- ==
-- entry: concat_digits
-- input { [1i64, 2i64, 3i64, 4i64] } output { 1234i64 }

entry sum (xs: []i32): i32 = reduce (+) 0 xs

entry prod_max (xs: []i64): (i64, i64) = (reduce (*) 1 xs, reduce i64.max i64.lowest xs)

-- Composition of affine maps x -> a*x + b is associative, not commutative.
entry compose [n] (as: [n]i64) (bs: [n]i64): (i64, i64) =
  reduce (\(a1, b1) (a2, b2) -> (a1 * a2, a2 * b1 + b2)) (1, 0) (zip as bs)

-- (value, 10^digits) pairs: appending numbers, again non-commutative.
entry concat_digits (xs: []i64): i64 =
  (reduce (\(v1, p1) (v2, p2) -> (v1 * p2 + v2, p1 * p2)) (0, 1) (map (\x -> (x, 10)) xs)).0
