-- Any binary function may be used infix with backticks.
-- ==
-- input { 7 2 } output { 5 9 }

def sub (x: i32) (y: i32) = x - y

def main (a: i32) (b: i32) : (i32, i32) = (a `sub` b, a `i32.max` b + b)
