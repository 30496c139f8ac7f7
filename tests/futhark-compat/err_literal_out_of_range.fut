-- An unsuffixed literal must be a value of the type inferred for it: 128 is
-- not an i8 (Futhark: "out of bounds").
-- ==
-- error: T013

def main : i8 = 128
