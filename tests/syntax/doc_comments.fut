-- Documentation comments `-- |` attach to the following declaration.
-- ==
-- input { 4 } output { 16 }

-- | Squares its argument.
--
-- Spans several lines.
def square (x: i32) = x * x

-- | The entry point.
def main (x: i32) = square x
