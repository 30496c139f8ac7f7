-- A module lacking a value its signature specifies.
-- ==
-- error: T008

module type S = { val f: i32 -> i32 val g: i32 -> i32 }
module M: S = { def f (x: i32) = x }
def main = M.f 1
