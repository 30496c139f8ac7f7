-- Applying a value that is not a function.
-- ==
-- error: T003

def main = let x = 1i32 in x 2
