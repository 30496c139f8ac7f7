-- A #[bound(n)] on a while loop bounds that loop only, not the while loop
-- in its body, although internalisation puts the attribute on the inner
-- loop's statement too: the inner loop here runs 15 times per outer
-- iteration, more than the bound of 8, and is differentiated with an
-- inspector. The outer loop runs 6 times. The derivative agrees with a
-- central finite difference (80.7303644 with h = 1e-7).
-- ==
-- input { 1.5 } output { 194.9932977396236 80.73036504912677 80.73036504912677 }

def f (x: f64) : f64 =
  #[bound(8)]
  loop y = x while y < 100 do
    (loop w = y while w < 2 * y do w * 1.05) + 1

def main (x: f64) : (f64, f64, f64) = (f x, vjp f x 1, jvp f x 1)
