-- map2 on array literals of different lengths.
-- ==
-- error: S001

def main : []i32 = map2 (+) [1, 2, 3] [4, 5]
