def a = 'a'
def b = '\n'
def c = '\''
def d = "hello\tworld\n"
def e = "quote \" and backslash \\"
def f = "ünïcødé"
def g = (true, false)
