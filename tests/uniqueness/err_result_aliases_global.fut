-- A function result may not alias a top-level array.
-- ==
-- error: U006

def table : []i32 = [1, 2, 3]

def pick (b: bool) : []i32 = if b then table else []

def main (b: bool) : []i32 = pick b
