-- Second derivatives of products at an input with exactly one zero.  The
-- first derivative of x0 x1 x2 with respect to x0 is x1 x2 = 0 when x1 = 0,
-- but its derivative with respect to x1 is x2, not 0: a reverse rule for
-- multiplicative reductions that treats zeros separately (the product of
-- the non-zero elements, and the count of zeros) must stay differentiable
-- in the zero element.  At x = [0.5, 0, 3], the Hessian's column 1 is
-- H e1 = [x2, 0, x0] = [3, 0, 0.5], for f64.product, reduce (*),
-- reduce_by_index with (*) and hist (*) alike, by jvp of vjp, vjp of vjp,
-- jvp of jvp and vjp of jvp (tests/ad/lib/hessian.fut), whose four whole
-- Hessians must also agree.
-- ==
-- entry: hvp_product hvp_reduce hvp_reduce_by_index hvp_hist
-- input { [0.5, 0.0, 3.0] [0.0, 1.0, 0.0] } output { [3.0, 0.0, 0.5] }
-- input { [0.0, 2.0, 3.0] [1.0, 0.0, 0.0] } output { [0.0, 3.0, 2.0] }

-- ==
-- entry: agrees
-- input { [0.5, 0.0, 3.0] } output { true }
-- input { [0.0, -1.5, 2.0, 4.0] } output { true }

import "lib/hessian"

def fp [n] (x: [n]f64) : f64 = f64.product x
def fr [n] (x: [n]f64) : f64 = reduce (*) 1 x
def fi [n] (x: [n]f64) : f64 = (reduce_by_index (replicate 1 1) (*) 1 (replicate n 0) x)[0]
def fh [n] (x: [n]f64) : f64 = f64.sum (hist (*) 1 1 (replicate n 0) x)

def hvp [n] (f: [n]f64 -> f64) (x: [n]f64) (v: [n]f64) : [n]f64 = jvp (grad f) x v

entry hvp_product [n] (x: [n]f64) (v: [n]f64) : [n]f64 = hvp fp x v
entry hvp_reduce [n] (x: [n]f64) (v: [n]f64) : [n]f64 = hvp fr x v
entry hvp_reduce_by_index [n] (x: [n]f64) (v: [n]f64) : [n]f64 = hvp fi x v
entry hvp_hist [n] (x: [n]f64) (v: [n]f64) : [n]f64 = hvp fh x v

entry agrees [n] (x: [n]f64) : bool =
  hessians_agree fp x && hessians_agree fr x && hessians_agree fi x && hessians_agree fh x
