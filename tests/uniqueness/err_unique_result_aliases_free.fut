-- A unique result may not alias a free (top-level) variable.
-- ==
-- error: U003

def table : []i32 = [1, 2, 3]
def f (x: i32) : *[]i32 = table
def main (x: i32) : []i32 = f x
