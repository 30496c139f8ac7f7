-- An anonymous size `[]` may not be hidden inside a function type in a
-- type abbreviation: `type^ pred = []i32 -> bool` has no size parameter
-- to bind it. Futhark rejects it (the size is anonymous).
-- ==
-- error: S00[123]|anonymous

type^ pred = []i32 -> bool

def main (x: i32) = x
