-- A type abbreviation applied to too many arguments.
-- ==
-- error: T011

type t 'a = a
def main (x: t i32 i32) = x
