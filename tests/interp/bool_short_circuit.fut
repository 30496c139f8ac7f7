-- && and || do not evaluate their right operand when the left one decides.
-- ==
-- input { 0 } output { false true }
-- input { 2 } output { true true }
-- input { 20 } output { false true }

def main (x: i32) : (bool, bool) =
  (x != 0 && 10 / x >= 1, x == 0 || 10 / x >= 0)
