-- A size parameter is rigid: `[n]i32` is not `[10]i32` (Futhark: "n" and "10"
-- do not match).
-- ==
-- error: S001

def main [n] (xs: [n]i32) : [10]i32 = xs
