-- An entry point may not take a size from the context of its call.
-- ==
-- error: T009

entry main [n] (x: i32) : [n]i32 = replicate n x
