-- The short-circuiting operator `&&` may not be redefined.
-- ==
-- error: T015

def (&&) (x: bool) (y: bool) : bool = x

def main (a: bool) (b: bool) : bool = a && b
