def a = x : i32
def b = xs :> [n]i32
def c = (x : i32) + 1
def d = f x : i64
def e = let ys = filter p xs :> [m]i32 in ys
