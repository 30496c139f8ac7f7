-- Type abbreviations with type and size parameters.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] 3i64 }

type pair 'a 'b = (a, b)
type vec [n] 'a = [n]a

def mk [n] (xs: vec [n] i32) : pair (vec [n] i32) i64 = (xs, n)

def main (xs: []i32) : ([]i32, i64) = mk xs
