-- The parameter in the `else` branch, a tuple of parameters, and a size used by a
-- function with a size parameter inside the body: the loop's sizes are invariant.
-- ==
-- input { [1, 2, 3] false } output { [4, 5, 6] [3i64, 3i64, 3i64] }
-- input { [1, 2, 3] true } output { [10, 10, 10] [3i64, 3i64, 3i64] }

def bump [k] (xs: [k]i32) : [k]i32 = map (+ 1) xs

entry main [n] (xs: [n]i32) (c: bool) : ([n]i32, [n]i64) =
  loop (acc, ls) = (xs, replicate n 0i64) for i < 3 do
    let t = if c then replicate n 9 else acc
    in (bump t, map (\_ -> length t) ls)
