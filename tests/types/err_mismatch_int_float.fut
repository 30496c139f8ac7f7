-- Adding an i32 and an f64.
-- ==
-- error: T002

def main = 1i32 + 2.0f64
