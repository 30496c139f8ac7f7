-- A lifted type (`type^`) may not implement a non-lifted abstract type
-- in a module type.
-- ==
-- error: T008

module m = { type^ t 'a = i32 -> a } : { type t 'a }
