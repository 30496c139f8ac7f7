-- The condition of an if must be bool.
-- ==
-- error: T002

def main (x: i32) = if x then 1 else 2
