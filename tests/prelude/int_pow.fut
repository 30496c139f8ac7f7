-- ** on integers, including wrap-around.
-- ==
-- input { 2 10 } output { 1024 }
-- input { -3 3 } output { -27 }
-- input { 7 0 } output { 1 }
-- input { 2 31 } output { -2147483648 }
-- input { 0 0 } output { 1 }

-- ==
-- entry: u8pow
-- input { 3u8 5u8 } output { 243u8 }
-- input { 2u8 8u8 } output { 0u8 }

def main (x: i32) (y: i32): i32 = x ** y

entry u8pow (x: u8) (y: u8): u8 = x u8.** y
