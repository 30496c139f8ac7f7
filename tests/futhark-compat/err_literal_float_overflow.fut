-- A decimal literal that rounds to an infinity in its inferred type is rejected.
-- ==
-- error: T013

def main : f32 = 9.7e42
