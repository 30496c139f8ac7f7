-- A size coercion to a size given by an expression, `b :> [length a]i32`,
-- was not checked (the interpreter and the IR checked `[n]` and `[2]`
-- only): a value of the wrong length passed silently.
-- ==
-- input { [1,2] [3,4] } output { [3,4] }
-- input { [1,2] [1,2,3] } error: Size mismatch

entry main (a: []i32) (b: []i32) : []i32 = b :> [length a]i32
