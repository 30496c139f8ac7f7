-- `loop p = init for x in xs do body` iterates over the elements.
-- ==
-- input { [3, 1, 4, 1, 5] } output { 14 5 }
-- input { empty([0]i32) } output { 0 0 }

def main (xs: []i32) : (i32, i32) =
  loop (s, m) = (0, 0) for x in xs do (s + x, i32.max m x)
