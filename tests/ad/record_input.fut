-- Gradients with respect to a record: f {a, b} = a*b + a.
-- ==
-- input { 2.0 5.0 } output { 6.0 2.0 6.0 }

def f (r: {a: f64, b: f64}) = r.a * r.b + r.a

def main (a: f64) (b: f64) : (f64, f64, f64) =
  let g = vjp f {a, b} 1
  in (g.a, g.b, jvp f {a, b} {a = 1, b = 0})
