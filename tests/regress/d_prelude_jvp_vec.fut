-- The prelude's AD module offers `jvp_vec`/`vjp_vec` (and the `2`
-- variants that also return the primal result): they take a vector of
-- seeds and are equivalent to mapping `jvp`/`vjp` over the seeds.
-- ==
-- input { 3.0 } output { [6.0, 12.0] [6.0, 12.0] 9.0 9.0 }

def sq (x: f64) = x * x

entry main (x: f64) =
  let seeds = [1.0, 2.0]
  let (p1, _) = jvp2_vec sq x seeds
  let (p2, _) = vjp2_vec sq x seeds
  in (jvp_vec sq x seeds, vjp_vec sq x seeds, p1, p2)
