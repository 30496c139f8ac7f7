def (+^) (x: i32) (y: i32) = x + y
def (x: i32) |-| (y: i32) : i32 = x - y
def a <*> b = a * b
def (-) x y = x
def use = 1 +^ 2 |-| 3 <*> 4
