def a = 3.14
def b = 1e10
def c = 2.5e-3f32
def d = 1f64
def e = 0x1.8p3
def f = 0x10p-2f32
def g = 1.5f16
def h = f32.inf
