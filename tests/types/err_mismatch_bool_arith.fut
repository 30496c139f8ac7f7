-- Booleans do not support arithmetic.
-- ==
-- error: T002

def main (a: bool) (b: bool) = a + b
