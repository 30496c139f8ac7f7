-- A size parameter that neither a parameter type nor the return type names
-- cannot be determined.
-- ==
-- error: S002

def f [n] (x: i32) : i32 = x

def main (x: i32) = f x
