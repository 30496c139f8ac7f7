def a = 0..<n
def b = 1...n
def c = n..>0
def d = 0..2..<n
def e = 0..<n+1
def f = a..b...c
def g = 10..8..>0
