-- Consuming the same array twice.
-- ==
-- error: U001

def f (xs: *[]i32) : *[]i32 = xs
def main (a: *[]i32) : ([]i32, []i32) = (f a, f a)
