-- `in` may be left out before another let.
-- ==
-- input { 2 } output { 8 }

def main (x: i32) =
  let a = x + 1
  let b = a * 2
  let c = b + x in
  c + 2 - 2
