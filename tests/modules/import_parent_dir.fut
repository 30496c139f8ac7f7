-- A library in a subdirectory imports its parent with "..".
-- ==
-- input {} output { 1.0 0.0 }

import "lib/sub/deep"

def main : (f64, f64) = (vdot unit_x unit_x, vdot origin unit_x)
