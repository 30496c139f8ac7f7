-- An undefined type name.
-- ==
-- error: T001

def main (x: nosuchtype) = x
