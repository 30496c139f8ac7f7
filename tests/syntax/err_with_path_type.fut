-- The value of a path update must have the type the path reaches.
-- ==
-- error: T002

def main (xs: *[]{f: i32, g: bool}) = xs with [0].f = true
