-- scatter consumes its destination array.
-- ==
-- input { [0, 0, 0, 0] [1i64, 3i64] [5, 7] } output { [0, 5, 0, 7] }

def main (dest: *[]i32) (is: []i64) (vs: []i32) : *[]i32 = scatter dest is vs
