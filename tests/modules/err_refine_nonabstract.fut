-- Refining a type that is not abstract is a module error.
-- ==
-- error: T008

module type S = { type t = i32 val x : t }
module type S2 = S with t = f32
def main = 1i32
