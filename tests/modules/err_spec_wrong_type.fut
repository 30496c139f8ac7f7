-- A module value whose type differs from its specification.
-- ==
-- error: T008

module M : { val f : i32 -> i32 } = { def f (x: f32) = x }
def main = M.f 1
