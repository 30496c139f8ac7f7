-- Record types are equal regardless of field order.
-- ==
-- input { 4 } output { 4 5 }

def f (r: {b: i32, a: i32}) = (r.a, r.b)

def main (x: i32) : (i32, i32) = f {a = x, b = x + 1}
