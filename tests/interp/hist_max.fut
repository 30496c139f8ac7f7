-- hist with max as operator.
-- ==
-- input { [0i64, 2i64, 0i64, 2i64] [5, 1, 7, 3] } output { [7, -2147483648, 3] }

def main (is: []i64) (vs: []i32) : []i32 = hist i32.max i32.lowest 3 is vs
