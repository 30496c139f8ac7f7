-- A decimal literal cannot have an integer type.
-- ==
-- error: T002

def main : i32 = 1.5
