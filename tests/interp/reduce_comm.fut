-- reduce_comm gives the same result as reduce for commutative operators.
-- ==
-- input { [1.5, 2.5, 3.0] } output { 7.0 11.25 }

def main (xs: []f64) : (f64, f64) = (reduce_comm (+) 0 xs, reduce_comm (*) 1 xs)
