-- Line comments anywhere, including after code and between definitions.
-- ==
-- input { 1 } output { 3 }
-- input { -5 } output { -3 }

-- a comment before a definition
def two = 2 -- trailing comment

def main (x: i32) = -- comment after the equals sign
  -- comment inside the body
  x + two -- another trailing comment
-- comment at the end of the file
