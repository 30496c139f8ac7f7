-- Access to a field the record does not have.
-- ==
-- error: T004

def main = let r = {a = 1i32} in r.b
