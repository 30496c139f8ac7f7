def a = 1 + 2 * 3
def b = 1 * 2 + 3
def c = a - b - c
def d = 2 ** 3 ** 2
def e = x == y && y != z || w
def f = a & b | c ^ d
def g = a << 2 + 1
def h = xs |> map f |> reduce (+) 0
def i = f <| g <| x
def j = a `max` b + c
def k = a +^ b *^ c
def l = -x + y
def m = -f x
def n = !a && b
def o = - -x
def p = x - -1
def q = a <= b == (c >= d)
def r = a // b %% c % d / e
def t = x M.+ y
def u = a |>> b
