-- Use of an undefined variable.
-- ==
-- error: T001

def main (x: i32) = x + foo
