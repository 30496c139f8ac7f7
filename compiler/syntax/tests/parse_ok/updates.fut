def a = xs with [i] = v
def b = xs with [i, j] = v
def c = xs with [1:3] = ys
def d = xss with [i, 0:n] = ys
def e = r with f = 1
def f = r with f.g = 1
def g = r with 0 = 1
def h = xs with [0] = 1 with [1] = 2
def i = xs with [i] = x + 1
