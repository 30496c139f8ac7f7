-- Second derivatives through while loops, in every combination of modes:
-- jvp of vjp, vjp of jvp and vjp of vjp, the inner vjp with an inspector
-- or with #[bound] and #[stripmine]. From 1.5 the loop y ← y² + 1 runs
-- three times (y₀ = 1.5, y₁ = 3.25, y₂ = 11.5625), so f' = 8·y₀·y₁·y₂ and
-- f'' = 8·(y₁·y₂ + y₀·y₂·y₁' + y₀·y₁·y₂') with y₁' = 2·y₀ = 3 and
-- y₂' = 2·y₁·y₁' = 19.5: 8·(37.578125 + 52.03125 + 95.0625) = 1477.375.
-- ==
-- input { 1.5 } output { 1477.375 1477.375 1477.375 1477.375 }

def f (x: f64) = loop y = x while y < 100 do y * y + 1

def fb (x: f64) =
  #[bound(10)] #[stripmine(2)] loop y = x while y < 100 do y * y + 1

def d1 (x: f64) = vjp f x 1
def d1b (x: f64) = vjp fb x 1
def j1 (x: f64) = jvp f x 1

def main (x: f64) : (f64, f64, f64, f64) =
  (jvp d1 x 1, jvp d1b x 1, vjp j1 x 1, vjp d1 x 1)
