-- The accepted variant of `err_consumed_arg_aliases_other.fut`: the
-- observed argument is a copy.
-- ==
-- input { [1, 2, 3] } output { [2, 2, 3] }

def put (src: []i32) (dst: *[]i32) : *[]i32 = dst with [0] = src[1]

def main (xs: *[]i32) : []i32 = put (copy xs) xs
