-- scatter writes values at indices; out-of-bounds indices are ignored.
-- ==
-- input { [0, 0, 0, 0, 0] [4i64, 0i64, 9i64, -1i64, 2i64] [1, 2, 3, 4, 5] } output { [2, 0, 5, 0, 1] }

def main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 = scatter dest is vs
