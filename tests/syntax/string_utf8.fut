-- Non-ASCII characters in strings are UTF-8 encoded (several bytes each).
-- ==
-- input {} output { 3i64 [195u8, 166u8] }

def main : (i64, []u8) = (length "aæ", "æ")
