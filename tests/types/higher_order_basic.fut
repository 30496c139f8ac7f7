-- Functions as arguments and partial application.
-- ==
-- input { 3 } output { 9 10 }

def apply_twice (f: i32 -> i32) (x: i32) = f (f x)
def compose 'a 'b 'c (f: b -> c) (g: a -> b) (x: a) : c = f (g x)

def main (x: i32) : (i32, i32) =
  (apply_twice (+ 3) x, compose (* 2) (+ 2) x)
