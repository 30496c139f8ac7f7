-- Hessian-vector product as jvp of vjp.  f (x, y) = x^2 y + y^3 has Hessian
-- [[2y, 2x], [2x, 6y]].
-- ==
-- input { 1.0 2.0 1.0 0.0 } output { 4.0 2.0 }
-- input { 1.0 2.0 0.0 1.0 } output { 2.0 12.0 }

def f (x: f64, y: f64) = x * x * y + y * y * y

def grad (p: (f64, f64)) : (f64, f64) = vjp f p 1

def main (x: f64) (y: f64) (vx: f64) (vy: f64) : (f64, f64) = jvp grad (x, y) (vx, vy)
