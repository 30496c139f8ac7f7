-- String literals are arrays of u8 holding the UTF-8 encoding.
-- ==
-- input {} output { [104u8, 105u8] 3i64 [97u8, 10u8, 34u8, 92u8] }

def main : ([]u8, i64, []u8) =
  ("hi", length "abc", "a\n\"\\")
