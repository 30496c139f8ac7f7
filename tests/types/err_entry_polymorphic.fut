-- An entry point may not be polymorphic.
-- ==
-- error: T009

entry main 'a (x: a) : a = x
