def x' = 1
def _private = 2
def CamelCase = 3
def snake_case_2 = x' + _private + CamelCase
def q = M.N.x
def r = f32.sqrt 2.0
