-- jmp/mjp (and the 2-variants) compute several Jacobian-vector or
-- vector-Jacobian products at once.  For f (x, y) = (x*y, x+y) at
-- (2, 3) the Jacobian is [[3, 2], [1, 1]].
-- ==
-- input { 2.0 3.0 } output { [3.0, 2.0] [1.0, 1.0] [3.0, 1.0] [2.0, 1.0] 6.0 5.0 }

-- ==
-- entry: empty_seeds
-- input { 2.0 3.0 } output { 6.0 0i64 }

def f (x: f64, y: f64): (f64, f64) = (x * y, x + y)

def main (x: f64) (y: f64): ([]f64, []f64, []f64, []f64, f64, f64) =
  let seeds = [(1.0, 0.0), (0.0, 1.0)]
  let cols = jmp f (x, y) seeds
  let (primal, rows) = mjp2 f (x, y) seeds
  let (p1, _) = jmp2 f (x, y) seeds
  let (c1, c2) = unzip cols
  let (r1, r2) = unzip rows
  in (c1, c2, r1, r2, primal.0 + p1.0 - p1.0, primal.1)

entry empty_seeds (x: f64) (y: f64): (f64, i64) =
  let (p, ts) = jmp2 f (x, y) []
  in (p.0, length ts)
