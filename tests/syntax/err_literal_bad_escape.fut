-- An unknown escape sequence in a string literal is malformed.
-- ==
-- error: P002

def main : []u8 = "a\q"
