-- The second argument is consumed, but the first argument is the same array.
-- ==
-- error: U005

def put (src: []i32) (dst: *[]i32) : *[]i32 = dst with [0] = src[1]

def main (xs: *[]i32) : []i32 = put xs xs
