-- Matching a module against a module type compares uniqueness: a
-- specification `val f : [1]f32 -> bool` promises not to consume its
-- argument, so an implementation that consumes it (`*[1]f32`) does not
-- match.
-- ==
-- error: T008

module M : { val f : [1]f32 -> bool } = { def f (_: *[1]f32) = true }

def main (x: [1]f32) : bool = M.f x
