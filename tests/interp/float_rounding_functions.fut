-- floor, ceil, trunc and round on floats (round: to nearest, ties to even).
-- ==
-- input { -2.5 } output { -3.0 -2.0 -2.0 -2.0 }
-- input { 2.6 } output { 2.0 3.0 2.0 3.0 }
-- input { 3.5 } output { 3.0 4.0 3.0 4.0 }
-- input { 0.5 } output { 0.0 1.0 0.0 0.0 }

def main (x: f64) : (f64, f64, f64, f64) = (f64.floor x, f64.ceil x, f64.trunc x, f64.round x)
