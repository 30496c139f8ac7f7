-- An argument whose constant size differs from the parameter size.
-- ==
-- error: S001

def f (xs: [3]i32) = xs[0]
def main = f [1, 2]
