-- An entry point may not take a function.
-- ==
-- error: T009

entry main (f: i32 -> i32) = f 1
