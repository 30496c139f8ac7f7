def f = fun x -> x

def g (x: i32) = x +
  in x

def h = [1, 2
def k = { x = 1, y }
def m = match x
  case 1 => 2

def n : = 3
type t = 
def o = (1, 2 3 4
