-- `loop p = init while cond do body`.
-- ==
-- input { 1 } output { 128 }
-- input { 200 } output { 200 }
-- input { 3 } output { 192 }

def main (x: i32) = loop y = x while y < 100 do y * 2
