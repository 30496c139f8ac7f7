def a = 1
) ] }
def b = 2
def c = 3 $ 4
