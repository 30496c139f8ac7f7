def a = {x = 1, y = 2}
def b = {x, y}
def c = {x = 1, y}
def d = {}
def e = (1, 2, 3)
def f = ()
def g = [1, 2, 3]
def h = []
def i = [[1, 2], [3, 4]]
def j = r.x
def k = (1, 2).0
def l = {a = {b = 1}}.a.b
def m = [1, 2, 3,]
def n = (1, 2,)
