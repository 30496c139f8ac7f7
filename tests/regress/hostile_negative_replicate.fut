-- A negative `replicate` count failed in compiled code without a source
-- location (the allocation of its memory failed, not the replicate).
-- ==
-- input { 3i64 } output { [1,1,1] }
-- input { -3i64 } error: negative

entry main (n: i64) : []i32 = replicate n 1
