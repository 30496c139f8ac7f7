def f (x: i32) = (x + 1

def g = 2
