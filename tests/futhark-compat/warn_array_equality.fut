-- Comparing arrays with `==` is deprecated (W002), but the program still
-- runs: two arrays are equal when their elements are.
-- ==
-- input { [1, 2] [1, 2] }
-- output { true false }
-- input { [1, 2] [1, 3] }
-- output { false true }
-- warning: deprecated

def main [n] (xs: [n]i32) (ys: [n]i32) = (xs == ys, (xs, 1) != (ys, 1))
