-- Precedence and associativity of built-in operators.
-- ==
-- input { 2 3 4 } output { 14 -5 2 true 14 true 64 }

def main (a: i32) (b: i32) (c: i32) : (i32, i32, i32, bool, i32, bool, i32) =
  (a + b * c,           -- 2 + 12
   a - b - c,           -- (2-3)-4, left associative
   c / a / 1,           -- (4/2)/1
   a < b && b < c || false,
   a | b << 2,          -- << binds tighter than |: 2 | 12
   a == 2 && b != 4,
   a ** b ** 1 * 8)
