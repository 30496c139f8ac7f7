-- Constant sizes written differently are compared by value: `[2 * 3]`
-- and `[7]` are different sizes.
-- ==
-- error: S001

def main (xs: [2 * 3]i32) : [7]i32 = xs
