-- Arrays may be indexed with any integer type.
-- ==
-- input { [10, 20, 30] 1i32 2u8 0i16 } output { 20 30 10 }

def main (xs: []i32) (a: i32) (b: u8) (c: i16) : (i32, i32, i32) = (xs[a], xs[b], xs[c])
