-- Perturbation confusion: in d/dx (x * d/dy (x + y)) the inner derivative
-- is 1 whatever x is, so the whole is d/dx x = 1; an implementation that
-- mixes the inner and outer perturbations of x gets 2.  Checked with every
-- pairing of jvp and vjp, with the inner derivative taken at a constant
-- point and at one depending on x.  A second case, d/dx (x * d/dy (x * y))
-- = d/dx (x * x) = 2x, and an array version,
-- d/dx (x * d/dy0 sum (map (\v -> x * v) ys)) = d/dx (x * x) = 2x, where
-- the inner derivative is a vjp through a map closing over x.
-- ==
-- entry: confusion
-- input { 1.0 } output { [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] }
-- input { -3.5 } output { [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] }

-- ==
-- entry: product
-- input { 1.5 } output { [3.0, 3.0, 3.0, 3.0] }
-- input { -2.0 } output { [-4.0, -4.0, -4.0, -4.0] }

-- ==
-- entry: array
-- input { 1.5 [2.0, -1.0, 0.5] } output { [3.0, 3.0] }
-- input { -0.25 [0.0, 4.0] } output { [-0.5, -0.5] }

def fwd (h: f64 -> f64) (x: f64) : f64 = jvp h x 1
def rev (h: f64 -> f64) (x: f64) : f64 = vjp h x 1

-- x * d/dy (x + y) at y = at x, with the inner derivative taken by d.
def inner_sum (d: (f64 -> f64) -> f64 -> f64) (at: f64 -> f64) (x: f64) : f64 =
  x * d (\y -> x + y) (at x)

entry confusion (x: f64) : [8]f64 =
  let constant _ = 1.0
  let square v = v * v
  in [ fwd (inner_sum fwd constant) x, fwd (inner_sum rev constant) x
     , rev (inner_sum fwd constant) x, rev (inner_sum rev constant) x
     , fwd (inner_sum fwd square) x, fwd (inner_sum rev square) x
     , rev (inner_sum fwd square) x, rev (inner_sum rev square) x ]

entry product (x: f64) : [4]f64 =
  let inner d x = x * d (\y -> x * y) 2.0
  in [fwd (inner fwd) x, fwd (inner rev) x, rev (inner fwd) x, rev (inner rev) x]

entry array [n] (x: f64) (ys: [n]f64) : [2]f64 =
  let inner x = x * (vjp (\zs -> f64.sum (map (\v -> x * v) zs)) ys 1)[0]
  let inner_fwd x = x * jvp (\zs -> f64.sum (map (\v -> x * v) zs)) ys (tabulate n (\i -> f64.bool (i == 0)))
  in [fwd inner x, rev inner_fwd x]
