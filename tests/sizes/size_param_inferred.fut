-- Size parameters are bound from the shapes of the arguments.
-- ==
-- input { [1, 2, 3] } output { 3i64 }
-- input { empty([0]i32) } output { 0i64 }

def len [n] 'a (_: [n]a) : i64 = n

def main (xs: []i32) : i64 = len xs
