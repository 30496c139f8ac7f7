-- An integer literal out of range for its suffix is malformed.
-- ==
-- error: P002

def main : u8 = 300u8
