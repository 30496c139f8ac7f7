-- Newton's method for a root of f, with the derivative obtained by jvp.
-- Also finds a minimum of g by Newton on g' (derivative of vjp by jvp).
-- ==
-- input { 2.0 } output { 1.4142135623730951 1.2599210498948732 1.0 }
-- input { 9.0 } output { 3.0 2.080083823051904 1.0 }

def newton (f: f64 -> f64) (x0: f64) : f64 =
  loop x = x0 for _i < 50 do
    let (fx, dfx) = jvp2 f x 1
    in if dfx == 0 then x else x - fx / dfx

def main (a: f64) : (f64, f64, f64) =
  let sqrt_a = newton (\x -> x * x - a) a
  let cbrt_a = newton (\x -> x * x * x - a) a
  -- g x = (x - 1)^4 + (x - 1)^2 has its minimum at 1
  let g (x: f64) = (x - 1) ** 4 + (x - 1) * (x - 1)
  let g' (x: f64) = vjp g x 1
  let xmin = newton g' a
  in (sqrt_a, cbrt_a, xmin)
