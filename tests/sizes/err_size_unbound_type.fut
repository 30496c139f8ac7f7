-- A size name in a type that is not in scope.
-- ==
-- error: S002

def main (xs: [k]i32) = xs
