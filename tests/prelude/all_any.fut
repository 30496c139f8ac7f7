-- all and any, including the empty array.
-- ==
-- input { [2, 4, 6] } output { true true }
-- input { [2, 5, 6] } output { false true }
-- input { [1, 3] } output { false false }
-- input { empty([0]i32) } output { true false }

def main (xs: []i32): (bool, bool) = (all (\x -> x % 2 == 0) xs, any (\x -> x % 2 == 0) xs)
