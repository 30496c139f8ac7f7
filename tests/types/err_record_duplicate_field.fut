-- A record literal with a duplicate field.
-- ==
-- error: T004|T010

def main = {a = 1i32, a = 2i32}
