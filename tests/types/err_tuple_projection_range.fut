-- Projection of a tuple element that does not exist.
-- ==
-- error: T004

def main = (1i32, 2i32).3
