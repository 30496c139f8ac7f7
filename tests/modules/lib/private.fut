-- Library with a local (non-exported) helper.

local def helper (x: i32) = x * 10

def public_fn (x: i32) = helper x + 1
