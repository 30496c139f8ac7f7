def a = if x then 1 else 2
def b = let x = 1 in x + 1
def c = let x = 1
        let y = 2
        in x + y
def d = let [n] (xs: [n]i32) = ys in n
def e = let f x = x + 1 in f 2
def g = let h 'a [n] (x: [n]a) : i64 = n in h xs
def k = let [m] xs = iota 3 in xs
def l = let (a, b) = (1, 2) in a
def m = let {x, y} = r in x
def n = let a[i] = 1 in a
def o = let a[i, j:k] = v in a
def p = let r.f = 1 in r
def q = let r.f.g = 1 in r
def r2 = let x: i32 = 1 in x
def s = x + if c then 1 else 2
def t = let f (x: i32) : i32 = x in f
