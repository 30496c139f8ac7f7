-- Passing a fresh array to a function with a unique parameter.
-- ==
-- input { [5, 6, 7] } output { [5, 6, 7] [0, 6, 7] }

def zero_first (xs: *[]i32) : *[]i32 = xs with [0] = 0

def main (xs: []i32) : ([]i32, []i32) = (xs, zero_first (copy xs))
