-- A reduction of a map fuses into one Screma.
-- ==
-- input { [1.0, 2.0, 3.0] } output { 14.0 }
-- structure { Screma 1 }

def main (xs: []f64) : f64 = reduce (+) 0 (map (\x -> x * x) xs)
