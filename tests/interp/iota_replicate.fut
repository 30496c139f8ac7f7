-- iota and replicate.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] [true, true, true, true] [[0i64, 1i64], [0i64, 1i64], [0i64, 1i64], [0i64, 1i64]] }
-- input { 0i64 } output { empty([0]i64) empty([0]bool) empty([0][2]i64) }

def main (n: i64) : ([]i64, []bool, [][]i64) = (iota n, replicate n true, replicate n (iota 2))
