-- `loop p = init for i < n do body`.
-- ==
-- input { 5 } output { 10 }
-- input { 0 } output { 0 }
-- input { 1 } output { 0 }

def main (n: i32) = loop acc = 0 for i < n do acc + i
