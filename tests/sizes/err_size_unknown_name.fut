-- A size in the return type that is bound nowhere.
-- ==
-- error: S002

def f [n] (x: i32) : [n]i32 = replicate n x
def main = f 1
