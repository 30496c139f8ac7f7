-- A record type with a duplicate field.
-- ==
-- error: T010|T004

type r = {a: i32, a: bool}
def main (x: r) = 1i32
