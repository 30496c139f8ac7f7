-- Assertions inside map are checked for every element.
-- ==
-- input { [1, 2, 3] } output { [1, 4, 9] }
-- input { [1, 0, 3] } error: Assertion is false

def main (xs: []i32) : []i32 = map (\x -> assert (x != 0) (x * x)) xs
