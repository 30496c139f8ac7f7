-- hist counts values into bins; out-of-bounds indices are ignored.
-- ==
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 7i64, -1i64, 3i64] } output { [1, 2, 0, 2] }

def main (k: i64) (is: []i64) : []i32 = hist (+) 0 k is (map (\_ -> 1) is)
