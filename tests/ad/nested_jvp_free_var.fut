-- The derivative with respect to b of the derivative with respect to a of
-- (a - b) ** 2 is -2: the inner jvp's function closes over b, which the outer
-- jvp differentiates.
-- ==
-- input { 1.0 5.0 } output { -2.0 }
-- input { 3.0 -1.0 } output { -2.0 }

def d f x = jvp f x 1f64

def inner (a: f64) (b: f64) =
  let p x = (x - b) ** 2
  in d p a

entry main (a: f64) (b: f64) = d (inner a) b
