-- The empty string is an empty u8 array.
-- ==
-- input {} output { empty([0]u8) 0i64 }

def main : ([]u8, i64) = ("", length "")
