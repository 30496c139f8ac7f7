-- A top-level function using overloaded operators is not generalised: its type defaults to i32, so using it at u8 is a type error.
-- ==
-- error: T002

def add x y = x + y
def main (a: u8) (b: u8) : u8 = add a b
