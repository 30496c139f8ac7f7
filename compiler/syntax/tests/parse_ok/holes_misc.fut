def a : i32 = ???
def b = M.(x + y)
def c = M.N.(f x)
def d = #[trace] ???
