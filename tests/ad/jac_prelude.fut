-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of prelude
-- functions built on loops and SOACs: foldl and foldr (sequential loops
-- with non-commutative steps), split, take and drop (slices), tabulate_2d,
-- zip3/unzip3, and an argmax-style reduce whose index selects an element.
--   y = [foldl (\a v -> a * v + 1) 0 x, foldr (\v a -> sin (a + v)) 0 x,
--        sum (take 2 x) * sum (drop 2 x), x[argmax]^2]
--       ++ flatten (tabulate_2d 2 2 (\i j -> x[i] * x[j + 1])) ++ (unzip3 ...).2
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[0.0, 1.5, -0.375, 0.0],
--           [0.9321685399273385, 0.4588846237377202, -0.4111941055860971, -0.30086615000387384],
--           [2.75, 2.75, -1.0, -1.0],
--           [1.0, 1.0, -1.0, -1.0],
--           [0.0, 0.0, 4.0, 0.0],
--           [-1.5, 0.5, 0.0, 0.0],
--           [2.0, 0.0, 0.5, 0.0],
--           [0.0, -3.0, 0.0, 0.0],
--           [0.75, 0.0, 0.0, 0.0],
--           [0.0, 6.75, 0.0, 0.0],
--           [0.0, 0.0, 12.0, 0.0],
--           [0.0, 0.0, 0.0, 1.6875]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [0.5, 2.0, 1.0] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0, 0.25] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [8 + n]f64 =
  let fl = foldl (\a v -> a * v + 1) 0 x
  let fr = foldr (\v a -> f64.sin (a + v)) 0 x
  let (front, back) = split (x :> [2 + (n - 2)]f64)
  let split_prod = f64.sum front * f64.sum back
  let take_drop = f64.sum (take 2 x) - f64.sum (drop 2 x)
  let pick (i, a) (j, b) = if a >= b then (i, a) else (j, b)
  let (best, _) = reduce pick (0, -f64.inf) (zip (iota n) x)
  let outer = flatten (tabulate_2d 2 2 (\i j -> x[i] * x[j + 1]))
  let (_, _, thirds) = unzip3 (zip3 x x (map (\v -> v * v * v) x))
  in ([fl, fr, split_prod, take_drop, x[best] * x[best]] ++ (outer[0:3] :> [3]f64) ++ thirds)
     :> [8 + n]f64

entry jac [n] (x: [n]f64) : [8 + n][n]f64 = jacobian (8 + n) f x
entry agrees [n] (x: [n]f64) : bool = agree (8 + n) f x
