-- Ranges take the type of their operands.
-- ==
-- input { 3i64 } output { [0i64, 1i64, 2i64] [1u8, 2u8, 3u8] }

def main (n: i64) : ([]i64, []u8) = (0..<n, 1u8...3u8)
