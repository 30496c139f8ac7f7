-- Strings are u8 arrays and work with array functions.
-- ==
-- input {} output { [99u8, 98u8, 97u8] 6i64 [72u8, 73u8] }

def upper (c: u8) : u8 = if c >= 'a' && c <= 'z' then c - 32 else c

def main : ([]u8, i64, []u8) = (reverse "abc", length ("abc" ++ "def"), map upper "hi")
