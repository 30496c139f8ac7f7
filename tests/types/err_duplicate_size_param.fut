-- A size parameter and a value parameter of one function may not share a name.
-- ==
-- error: T010

def f [n] (n: i64) (xs: [n]i32) = xs

def main (xs: []i32) = f (length xs) xs
