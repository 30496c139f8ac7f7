-- Consuming, inside a loop body, a variable that is not a loop parameter.
-- ==
-- error: U002

def main (a: *[]i32) (n: i32) : i32 =
  loop s = 0 for i < n do
    let b = a with [0] = s
    in b[0] + s
