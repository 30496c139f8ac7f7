def a = 42
def b = 1_000_000i64
def c = 0xffu8
def d = 0b1010i32
def e = 255u8
def f = 0x7fffffffffffffffi64
def g = -1i8
