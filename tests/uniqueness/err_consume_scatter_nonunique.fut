-- scatter into a non-unique array.
-- ==
-- error: U002

def main (dest: []i32) (is: []i64) (vs: []i32) : []i32 = scatter dest is vs
