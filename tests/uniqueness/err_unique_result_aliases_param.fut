-- A unique result may not alias a non-unique parameter.
-- ==
-- error: U003

def f (a: []i32) : *[]i32 = a
def main (a: []i32) : []i32 = f a
