-- Application of an undefined function.
-- ==
-- error: T001

def main (x: i32) = frobnicate x
