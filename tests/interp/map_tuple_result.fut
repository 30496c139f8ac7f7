-- A map returning tuples produces an array of tuples, unzipped into two outputs.
-- ==
-- input { [1, 2, 3] } output { [1, 4, 9] [1, 8, 27] }

def main (xs: []i32) : ([]i32, []i32) = unzip (map (\x -> (x * x, x * x * x)) xs)
