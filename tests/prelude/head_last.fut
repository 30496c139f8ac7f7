-- head and last; both fail on an empty array.
-- ==
-- input { [7, 8, 9] } output { 7 9 }
-- input { [4] } output { 4 4 }
-- input { empty([0]i32) } error: out of bounds

def main (xs: []i32): (i32, i32) = (head xs, last xs)
