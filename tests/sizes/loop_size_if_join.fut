-- A loop parameter's size is inferred from its initial value: an `if` whose branches
-- are the parameter and an array of the initial size keeps that size, so the result
-- can be combined with another array of size `n`.
-- ==
-- input { 3i64 true } output { [3, 3, 3] }
-- input { 3i64 false } output { [2, 2, 2] }
-- input { 0i64 true } output { empty([0]i32) }

entry main (n: i64) (c: bool) : [n]i32 =
  loop acc = replicate n 0i32 for i < n do
    let t = if c then acc else replicate n 1
    in map2 (+) t (replicate n 1)
