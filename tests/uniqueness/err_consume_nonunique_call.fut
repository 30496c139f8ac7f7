-- Passing a non-unique parameter to a function that consumes it.
-- ==
-- error: U002

def f (xs: *[]i32) : *[]i32 = xs with [0] = 0
def main (a: []i32) : []i32 = f a
