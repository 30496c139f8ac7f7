-- The element type of an empty array literal is never determined.
-- ==
-- error: T006

def main : i64 = length []
