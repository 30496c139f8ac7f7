-- The accepted variant of `err_underscore_variable_used.fut`: the
-- underscore-prefixed parameter is not used.
-- ==
-- input { 4 5 } output { 5 }

def main (_count: i32) (x: i32) : i32 = x
