-- A user-defined operator, defined in prefix form.
-- ==
-- input { 3 4 } output { 25 }

def (+^) (x: i32) (y: i32) = x * x + y * y

def main (a: i32) (b: i32) = a +^ b
