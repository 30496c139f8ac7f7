-- Field access on a non-record.
-- ==
-- error: T004

def main (x: i32) = x.foo
