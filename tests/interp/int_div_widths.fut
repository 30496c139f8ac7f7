-- Floor division and modulus at i8, i16 and i64.
-- ==
-- input { -9i8 4i8 -9i16 4i16 -9i64 4i64 }
-- output { -3i8 3i8 -3i16 3i16 -3i64 3i64 -2i64 -1i64 }

def main (a: i8) (b: i8) (c: i16) (d: i16) (e: i64) (f: i64)
    : (i8, i8, i16, i16, i64, i64, i64, i64) =
  (a / b, a % b, c / d, c % d, e / f, e % f, e // f, e %% f)
