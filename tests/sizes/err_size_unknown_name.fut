-- A size in the return type that nothing determines: `n` is a size parameter
-- named only by the return type, so each call takes it from its context, and
-- here the context (an unannotated `main`) does not fix it.
-- ==
-- error: T006

def f [n] (x: i32) : [n]i32 = replicate n x
def main = f 1
