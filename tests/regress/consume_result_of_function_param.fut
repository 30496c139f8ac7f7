-- The result of calling a function-typed parameter (with a non-unique
-- return type) may alias anything, so it cannot be updated in place.
-- ==
-- error: U002

def g (h: i64 -> []i32) : i32 =
  let arr = h 3
  let arr[0] = 7
  in arr[0]
