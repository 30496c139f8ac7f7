-- vjp of a function returning a record, seeded with a record.
-- ==
-- input { 3.0 } output { 6.0 1.0 16.0 }

def f (x: f64) : {sq: f64, lin: f64} = {sq = x * x, lin = x}

def main (x: f64) : (f64, f64, f64) =
  let t = jvp f x 1
  in (t.sq, t.lin, vjp f x {sq = 2, lin = 4})
