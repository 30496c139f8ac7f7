-- A type hole `???` type checks as any type; evaluating it is an error.
-- Here it is never evaluated.
-- ==
-- input { 3 } output { 3 }

def main (x: i32) : i32 = if x > 1000 then ??? else x
