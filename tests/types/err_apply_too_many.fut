-- Applying a function to too many arguments.
-- ==
-- error: T003

def f (x: i32) = x + 1
def main = f 1 2
