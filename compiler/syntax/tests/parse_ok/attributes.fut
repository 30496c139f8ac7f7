#[inline]
def a = 1
#[noinline]
#[stripmine(2)]
def b = 2
def c = #[unsafe] xs[i]
def d = #[sequential] reduce (+) 0 xs
def e = loop x = 0 for i < n do #[bound(10)] x + 1
def f = let #[maybe_unused] x = 1 in 2
