-- Polymorphic functions over tuples.
-- ==
-- input { 1 2.0 } output { 2.0 1 }

def swap 'a 'b ((x, y): (a, b)) : (b, a) = (y, x)

def main (x: i32) (y: f64) : (f64, i32) = swap (x, y)
