def a = loop acc = 0 for i < n do acc + i
def b = loop (x, y) = (0, 1) for i < n do (y, x + y)
def c = loop x for i < 10 do x * 2
def d = loop acc = 0 for x in xs do acc + x
def e = loop (i, x) = (0, 1) while i < 10 do (i + 1, x * 2)
def f = loop (acc: *[]i32) = replicate n 0 for i < n do acc with [i] = i
def g = loop (x: i32, y: f64) = (0, 0.0) for i < 3 do (x, y)
def h = loop x = 0 for (a, b) in zip xs ys do x + a * b
def i = loop (x, y) for i < 3 do (y, x)
