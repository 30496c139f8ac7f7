-- The prelude's module `intrinsics` may not be used as a module expression.
-- ==
-- error: T008

module M = intrinsics

def main (x: i32) = x
