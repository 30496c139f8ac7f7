-- Character literals are integer literals holding the code point.
-- ==
-- input {} output { 97u8 65 10u8 39i64 48u8 }

def main : (u8, i32, u8, i64, u8) = ('a', 'A', '\n', '\'', '0')
