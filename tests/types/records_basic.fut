-- Record types, type abbreviations and functions on records.
-- ==
-- input { 3.0 4.0 } output { 5.0 }

type point = {x: f64, y: f64}

def norm (p: point) = f64.sqrt (p.x * p.x + p.y * p.y)

def main (a: f64) (b: f64) = norm {x = a, y = b}
