-- Both branches of an if may update and return the same unique array.
-- ==
-- input { [1, 2, 3] true } output { [9, 2, 3] }
-- input { [1, 2, 3] false } output { [1, 2, 9] }

def main (xs: *[]i32) (b: bool) : *[]i32 =
  if b then xs with [0] = 9 else xs with [2] = 9
