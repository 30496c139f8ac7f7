-- Body type differs from the declared return type.
-- ==
-- error: T002

def main (x: i32) : bool = x + 1
