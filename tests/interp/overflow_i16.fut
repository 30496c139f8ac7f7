-- i16 arithmetic wraps around.
-- ==
-- input { 32767i16 } output { -32768i16 -2i16 1i16 }

def main (x: i16) : (i16, i16, i16) = (x + 1, x * 2, x * x)
