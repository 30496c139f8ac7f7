def a = 1 +
def b = (2 * )
def c = let x = in x
def d = if true then 1
def e = 5
