-- A type parameter of a function need not occur in the types of its value
-- parameters, nor anywhere: Futhark checks only that size parameters are used
-- (in a parameter type or the return type). `'unused` is instantiated afresh at
-- each call and never determined, which is harmless.
-- ==
-- input { 3 } output { 3 }

def keep 'unused (x: i32) : i32 = x

def main (x: i32) = keep x
