-- An anonymous size [] in a parameter type matches any size.
-- ==
-- input { [1, 2, 3] [4] } output { 4i64 }

def total_len (xs: []i32) (ys: []i32) : i64 = length xs + length ys

def main (xs: []i32) (ys: []i32) = total_len xs ys
