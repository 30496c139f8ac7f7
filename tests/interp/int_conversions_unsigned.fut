-- Converting from unsigned types zero-extends.
-- ==
-- input { 200u8 65535u16 } output { 200 200i64 65535 -1i16 -56i8 }

def main (a: u8) (b: u16) : (i32, i64, i32, i16, i8) =
  (i32.u8 a, i64.u8 a, i32.u16 b, i16.u16 b, i8.u8 a)
