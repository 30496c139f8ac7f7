-- A module can be bound to another name.
-- ==
-- input { 3 } output { 6 }

module A = { def double (x: i32) = 2 * x }
module B = A

def main (x: i32) = B.double x
