-- A user-defined operator, defined in infix form.
-- ==
-- input { 10 3 } output { 7 }
-- input { 3 10 } output { 7 }

def (x: i32) |-| (y: i32) : i32 = i32.abs (x - y)

def main (a: i32) (b: i32) = a |-| b
