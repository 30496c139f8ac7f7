-- Float modulus with positive operands.
-- ==
-- input { 5.5 2.0 } output { 1.5 }
-- input { 7.0 2.5 } output { 2.0 }

def main (a: f64) (b: f64) = a % b
