-- A library that imports another library relative to its own location.
-- ==
-- input { 3.0 4.0 } output { 5.0 5.0 }

import "lib/geom"

def main (x: f64) (y: f64) : (f64, f64) =
  let v: vec3 = {x, y, z = 0}
  in (norm v, dist v {x = 0, y = 0, z = 0})
