-- Division by zero is an error for unsigned types too.
-- ==
-- input { 7u8 2u8 } output { 3u8 }
-- input { 7u8 0u8 } error: Division by zero

def main (a: u8) (b: u8) : u8 = a / b
