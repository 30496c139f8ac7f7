-- Parameters may be tuple, record and wildcard patterns, with or without annotations.
-- ==
-- input { 2 3 } output { 5 6 2 }

def add_pair (a, b) = a + b : i32
def mul_rec ({x, y}: {x: i32, y: i32}) = x * y
def first (a: i32) (_: i32) = a

def main (p: i32) (q: i32) : (i32, i32, i32) =
  (add_pair (p, q), mul_rec {x = p, y = q}, first p q)
