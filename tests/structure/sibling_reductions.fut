-- Two reductions over one array are computed by one Screma.
-- ==
-- input { [3, 1, 2] } output { 6 3 }
-- structure { Screma 1 }

def main (xs: []i32) : (i32, i32) = (reduce (+) 0 xs, reduce i32.max i32.lowest xs)
