-- The accepted variant of `err_result_aliases_global.fut`: the result is a
-- copy of the top-level array.
-- ==
-- input { true } output { [1, 2, 3] }
-- input { false } output { empty([0]i32) }

def table : []i32 = [1, 2, 3]

def pick (b: bool) : []i32 = if b then copy table else []

def main (b: bool) : []i32 = pick b
