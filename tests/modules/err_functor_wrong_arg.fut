-- Applying a functor to a module that does not match its parameter type.
-- ==
-- error: T008

module type has_k = { val k : i32 }
module F (P: has_k) = { def v = P.k + 1 }
module M = F { def j = 3i32 }
def main = M.v
