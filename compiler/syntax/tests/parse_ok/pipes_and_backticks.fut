def a = xs |> map (+1) |> filter (>0)
def b = f <| g <| h x
def c = x `f` y `g` z
def d = a |> b <| c
def e = xs |> map (\x -> x + 1)
