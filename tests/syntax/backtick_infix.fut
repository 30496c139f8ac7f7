-- Any binary function may be used infix with backticks. Backtick infix binds more
-- loosely than every symbolic operator, so a `max` b + b is a `max` (b + b).
-- ==
-- input { 7 2 } output { 5 7 }
-- input { 1 2 } output { -1 4 }

def sub (x: i32) (y: i32) = x - y

def main (a: i32) (b: i32) : (i32, i32) = (a `sub` b, a `i32.max` b + b)
