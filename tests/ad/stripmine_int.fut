-- A strip-mined loop on integers with an i32 bound: the counter and the
-- guard work in i64 and the loop index is converted back. Integers are
-- differentiated with integer arithmetic: d/dx xʸ = y·x^(y-1), so 3·4² = 48,
-- 9·3⁸ = 59049, and 100000·1 for a loop of 10⁵ iterations (split into three
-- loops of 47 iterations).
-- ==
-- input { 3 4 } output { 64 48 48 }
-- input { 9 3 } output { 19683 59049 59049 }
-- input { 100000 1 } output { 1 100000 100000 }
-- input { 0 5 } output { 1 0 0 }

def pow (y: i32) (x: i32) : i32 =
  #[stripmine(3)] loop acc = 1 for _i < y do acc * x

def main (y: i32) (x: i32) : (i32, i32, i32) =
  (pow y x, jvp (pow y) x 1, vjp (pow y) x 1)
