-- sized changes the static size of an array, checked at run time.
-- ==
-- input { 3i64 [1, 2, 3] } output { [1, 2, 3] }
-- input { 2i64 [1, 2, 3] } error: Size mismatch

def main (n: i64) (xs: []i32): []i32 = sized n xs
