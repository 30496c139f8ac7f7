-- A qualified name in an undefined module.
-- ==
-- error: T001

def main (x: i32) = NoSuchModule.f x
