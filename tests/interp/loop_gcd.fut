-- Euclid's algorithm as a while loop.
-- ==
-- input { 48 18 } output { 6 }
-- input { 17 5 } output { 1 }
-- input { 0 9 } output { 9 }

def main (a: i32) (b: i32) =
  let (a, _) = loop (a, b) while b != 0 do (b, a % b)
  in a
