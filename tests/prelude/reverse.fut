-- reverse.
-- ==
-- input { [1, 2, 3] } output { [3, 2, 1] }
-- input { empty([0]i32) } output { empty([0]i32) }

-- ==
-- entry: rows
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[5, 6], [3, 4], [1, 2]] }

def main (xs: []i32): []i32 = reverse xs

entry rows (xss: [][]i32): [][]i32 = reverse xss
