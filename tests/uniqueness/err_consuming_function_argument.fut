-- A function that consumes its argument passed to `map`, whose function
-- parameter does not consume.
-- ==
-- error: U007

def zero_first (r: *[]i32) : *[]i32 = r with [0] = 0

def main (rows: *[][]i32) : [][]i32 = map zero_first rows
