-- Logistic function: s'(x) = s(x) (1 - s(x)).
-- ==
-- input { 0.3 } output { 0.574442516811659 0.24445831169074586 0.24445831169074586 }

def sigmoid (x: f64) = 1 / (1 + f64.exp (-x))

def main (x: f64) : (f64, f64, f64) =
  let (y, dy) = jvp2 sigmoid x 1
  in (y, dy, vjp sigmoid x 1)
