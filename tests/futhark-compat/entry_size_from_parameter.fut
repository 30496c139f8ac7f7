-- The size given to an entry point as a parameter may size its result.
-- ==
-- input { 3i64 7 } output { [7, 7, 7] }

entry main (n: i64) (x: i32) : [n]i32 = replicate n x
