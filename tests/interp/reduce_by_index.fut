-- reduce_by_index combines values into an existing array.
-- ==
-- input { [10, 20, 30] [0i64, 2i64, 0i64, 5i64] [1, 2, 3, 4] } output { [14, 20, 32] }

def main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 = reduce_by_index dest (+) 0 is vs
