-- In a test block, unsuffixed numbers in `output { }` are read at the
-- entry point's result type, just as those in `input { }` are read at
-- its parameter types (diku-dk/segmented's tests rely on this).
-- ==
-- input { [1, 2, 3] } output { [2, 4, 6] }

def main (xs: []i64) : []i64 = map (*2) xs
