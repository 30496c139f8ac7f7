def a = match x
        case 0 -> 1
        case -1 -> 2
        case _ -> 3
def b = match o
        case #some x -> x
        case #none -> 0
def c = match t
        case (1, _) -> 1
        case (_, y) -> y
def d = match r
        case {x = 1, y} -> y
        case {x, y = _} -> x
def e = match c
        case 'a' -> 1
        case _ -> 2
def f = match b
        case true -> 1
        case false -> 0
def g = match v
        case (x: i32) -> x
def h = match v
        case #pair (#some a) b -> a + b
        case #pair #none b -> b
def i = match f
        case 1.5 -> 1
        case -2.5f32 -> 2
        case _ -> 3
