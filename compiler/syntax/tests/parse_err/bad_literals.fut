def a = 300u8
def b = 1.5i32
def c = 12abc
def d = "bad \q escape"
def e = '\z'
def f = "unterminated
