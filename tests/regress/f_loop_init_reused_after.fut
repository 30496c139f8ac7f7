-- A loop whose initial tuple holds a local array that is used again after the
-- loop.  The body does not consume its parameter, so Futhark leaves `p0` intact.
-- --backend=ir: "internalised program rejected: the input program is not valid:
-- in `main`: `map` is used after being consumed".  Found by tests/programs/vec3_record_nbody.fut (energy_drift).
-- ==
-- input { [1.0, 2.0] [3.0, 4.0] } output { 21.0 }
def step [n] (ps: [n]f64, vs: [n]f64) : ([n]f64, [n]f64) = (map2 (+) ps vs, vs)
entry main [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  let p0 = map (* 2) xs
  let (a, b) = loop st = (p0, ys) for _i < 2 do step st
  in f64.sum a + f64.sum b - f64.sum p0
