-- Differentiating through a for loop: squaring three times gives x^8.
-- ==
-- input { 1.5 } output { 136.6875 136.6875 }
-- input { 1.0 } output { 8.0 8.0 }

def f (x: f64) = loop y = x for _i < 3 do y * y

def main (x: f64) : (f64, f64) = (jvp f x 1, vjp f x 1)
