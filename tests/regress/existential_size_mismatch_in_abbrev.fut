-- In a value of type ?[n].([n]i32, i32 -> [n]i32), both components must
-- use the same size; here the array has length k+1 but the function
-- returns length k, so the program must be rejected.
-- ==
-- error: T002|S00[123]

type^ pair = ?[n].([n]i32, i32 -> [n]i32)

def mk (k: i64) : pair =
  (replicate (k + 1) 0, \v -> replicate k v)
