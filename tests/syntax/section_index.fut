-- Index sections (.[i]) index their argument.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [2, 5] [3, 6] }

def main (xss: [][]i32) : ([]i32, []i32) = (map (.[1]) xss, map (.[2]) xss)
