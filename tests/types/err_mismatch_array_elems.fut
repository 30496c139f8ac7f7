-- Array literal with elements of different types.
-- ==
-- error: T002

def main = [1i32, 2i64]
