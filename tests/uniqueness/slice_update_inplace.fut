-- Updating a slice of a unique array in place.
-- ==
-- input { [1, 2, 3, 4, 5, 6] } output { [1, 2, 0, 0, 0, 6] }

def main (xs: *[]i32) : *[]i32 = xs with [2:5] = replicate 3 0
