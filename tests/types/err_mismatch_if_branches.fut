-- Branches of an if with different types.
-- ==
-- error: T002

def main (b: bool) = if b then 1i32 else true
