-- A slice of a non-unique parameter cannot be returned as unique.
-- ==
-- error: U003

def f (a: []i32) : *[]i32 = a[1:]
def main (a: []i32) : []i32 = f a
