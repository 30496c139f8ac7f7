-- i8 arithmetic wraps around.
-- ==
-- input { 127i8 } output { -128i8 -2i8 -127i8 }
-- input { -128i8 } output { -127i8 0i8 -128i8 }

def main (x: i8) : (i8, i8, i8) = (x + 1, x * 2, -x)
