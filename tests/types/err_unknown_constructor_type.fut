-- A constructor not in the expected sum type.
-- ==
-- error: T002

type t = #a | #b
def main : t = #c
