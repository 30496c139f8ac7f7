def f (x: i32) =
  let a = x + * 2
  let b = (x, ,)
  let c = [1, 2 = 3]
  let d = if x then
  in a + b + c

def g = 1
def h = g +
