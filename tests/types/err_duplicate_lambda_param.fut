-- The parameters of a lambda may not bind one name twice.
-- ==
-- error: T010

def main (xs: []i32) = map2 (\(a, a) b -> a + b) (zip xs xs) xs
