-- Updating a parameter that is not unique.
-- ==
-- error: U002

def main (a: []i32) : []i32 = a with [0] = 1
