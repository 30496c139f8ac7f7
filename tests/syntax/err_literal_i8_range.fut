-- 128 does not fit in i8.
-- ==
-- error: P002

def main : i8 = 128i8
