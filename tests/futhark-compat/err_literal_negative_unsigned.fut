-- A negated literal of an unsigned type is out of its range.
-- ==
-- error: T013

def main (x: u32) : u32 = x + -4
