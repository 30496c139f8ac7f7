-- The empty tuple () is a value of its own type.
-- ==
-- input { 3 } output { 3 }

def f () = 3i32
def g (x: i32) : () = ()

def main (x: i32) = let () = g x in f () * 0 + x
