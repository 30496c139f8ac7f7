-- Equality on tuples and records of primitives.
-- ==
-- input { 1 2 } output { true false true }

def main (a: i32) (b: i32) : (bool, bool, bool) =
  ((a, true) == (a, true), {x = a, y = b} == {x = a, y = a}, (a, b) != (b, a))
