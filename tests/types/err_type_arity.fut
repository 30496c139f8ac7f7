-- A parametric type abbreviation used without its argument.
-- ==
-- error: T011

type t 'a = a
def main (x: t) = 1i32
