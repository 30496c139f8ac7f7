-- The accepted variant of `err_consuming_function_argument.fut`: the
-- function passed to `map` consumes a copy of each row.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[0, 2], [0, 4]] }

def zero_first (r: *[]i32) : *[]i32 = r with [0] = 0

def main (rows: [][]i32) : [][]i32 = map (\r -> zero_first (copy r)) rows
