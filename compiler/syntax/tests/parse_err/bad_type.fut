def f (x: [n) = x
type t = i32 ->
def g = 1
