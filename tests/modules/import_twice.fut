-- Importing the same file twice (directly and through another import) is fine.
-- ==
-- input { 2.0 } output { 12.0 }

import "lib/vec3"
import "lib/geom"
import "lib/vec3"

def main (k: f64) = vdot (vscale k {x = 1, y = 1, z = 1}) {x = 2, y = 2, z = 2}
