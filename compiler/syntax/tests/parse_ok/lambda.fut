def a = \x -> x + 1
def b = \x y -> x * y
def c = \(x: i32) (y: i32) : i32 -> x + y
def d = \(a, b) -> a + b
def e = \{x, y} -> x
def f = map (\x -> x + 1) xs
def g = \_ -> 0
def h = \x -> \y -> x
