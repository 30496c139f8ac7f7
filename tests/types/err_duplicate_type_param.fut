-- Two type parameters with the same name.
-- ==
-- error: T010

def f 'a 'a (x: a) = x
def main = f 1i32
