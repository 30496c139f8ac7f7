-- An integer literal may be used at a float type.
-- ==
-- input { 0.5 } output { 2.5 }

def main (x: f64) = x + 2
