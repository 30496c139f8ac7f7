-- Update paths mixing fields and indices, their `let` forms and sections.
def a (xs: *[]{f: i32}) = xs with [0].f = 1
def b (r: *{f: [3]i32}) = r with f[1] = 2
def c r i v = r with a.b[i].c = v
def d (xss: *[][]i32) = xss with [0][1:3] = [1, 2]
def e (xs: *[]{f: i32}) =
  let xs[1].f = 3
  let r = {f = copy xs}
  let r.f[0].f = 4
  in (xs, r)
def s = ((.[0].f), (.a[1:3]), (.a.b), (.[1][2]), (.[0]), (.x))
