-- Matching a module against a module type compares uniqueness: a
-- specification whose result is unique (`*[]i32`) is not met by a
-- function whose result is not unique.
-- ==
-- error: T008

module type mt = { val f : i32 -> *[]i32 }
module m : mt = { def f (n: i32) : []i32 = [n] }

def main (n: i32) : []i32 = m.f n
