-- A function type passed where an unlifted type parameter is required.
-- ==
-- error: T007

def arr 'a (x: a) : [1]a = [x]
def main (x: i32) = (arr (\(y: i32) -> y))[0] x
