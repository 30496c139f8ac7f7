def f = match x
