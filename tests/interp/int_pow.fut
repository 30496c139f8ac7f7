-- Integer exponentiation, with wrapping.
-- ==
-- input { 2 10 } output { 1024 0i8 -13i8 1u64 }
-- input { 3 4 } output { 81 0i8 -13i8 1u64 }

def main (a: i32) (b: i32) : (i32, i8, i8, u64) = (a ** b, 2i8 ** 8, 3i8 ** 5, 7u64 ** 0)
