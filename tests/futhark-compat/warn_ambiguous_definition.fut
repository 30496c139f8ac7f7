-- A top-level definition whose operator's type nothing fixes is ambiguous
-- (W003); it is given the first type the operator allows, i32.
-- ==
-- input { 2 3 }
-- output { 5 }
-- warning: ambiguous

def plus x y = x + y

def main (a: i32) (b: i32) = plus a b
