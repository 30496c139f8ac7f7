-- iterate, iterate_until and iterate_while.
-- ==
-- input { 5 1i64 } output { 32i64 128i64 1i64 }
-- input { 0 1i64 } output { 1i64 128i64 1i64 }
-- input { -3 200i64 } output { 200i64 200i64 100i64 }

def main (n: i32) (x: i64): (i64, i64, i64) =
  (iterate n (* 2) x,
   iterate_until (> 100) (* 2) x,
   iterate_while (> 100) (/ 2) x)
