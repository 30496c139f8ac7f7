-- Importing a library file relative to the importing file.
-- ==
-- input { 1.0 2.0 3.0 } output { 14.0 3.0 }

import "lib/vec3"

def main (x: f64) (y: f64) (z: f64) : (f64, f64) =
  let v = {x, y, z}
  let w = vadd v (vscale 0 v)
  in (vdot v w, w.z)
