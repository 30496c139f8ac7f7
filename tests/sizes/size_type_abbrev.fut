-- Size-parameterised type abbreviations.
-- ==
-- input { [1.0, 2.0] [3.0, 4.0] } output { 11.0 }

type vec [n] = [n]f64

def dot [n] (a: vec [n]) (b: vec [n]) : f64 = f64.sum (map2 (*) a b)

def main [n] (a: vec [n]) (b: vec [n]) = dot a b
