-- The accepted variant of `err_redefine_and_operator.fut`: an operator of
-- another name, at the precedence of `&&`.
-- ==
-- input { true false } output { true }

def (&&&) (x: bool) (_y: bool) : bool = x

def main (a: bool) (b: bool) : bool = a &&& b
