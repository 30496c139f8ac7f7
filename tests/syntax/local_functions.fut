-- Functions defined locally with let, closing over local variables.
-- ==
-- input { 3 } output { 16 [4, 5, 6] }

def main (k: i32) : (i32, []i32) =
  let add_k (x: i32) = x + k
  let twice f (x: i32) = f (f x)
  in (twice add_k 10, map add_k [1, 2, 3])
