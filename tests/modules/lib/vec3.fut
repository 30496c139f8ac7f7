-- Library: three-dimensional vectors of f64.  Not a test (no test block).

type vec3 = {x: f64, y: f64, z: f64}

def vadd (a: vec3) (b: vec3) : vec3 = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
def vscale (k: f64) (a: vec3) : vec3 = {x = k * a.x, y = k * a.y, z = k * a.z}
def vdot (a: vec3) (b: vec3) : f64 = a.x * b.x + a.y * b.y + a.z * b.z
