-- A top-level function without annotations that uses overloaded operators
-- gets the default type i32 (it is not generalised over numeric types).
-- ==
-- input { 3 4 } output { 7 }

def add x y = x + y

def main (a: i32) (b: i32) = add a b
