-- Library: builds on vec3.fut, imported relative to this file.

import "vec3"

def norm (a: vec3) : f64 = f64.sqrt (vdot a a)
def dist (a: vec3) (b: vec3) : f64 = norm (vadd a (vscale (-1) b))
