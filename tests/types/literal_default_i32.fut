-- Integer literals whose type is not otherwise determined default to i32.
-- ==
-- input {} output { 2147483647 -2147483648 }

def main : (i32, i32) =
  let x = 2147483647
  in (x, x + 1)
