-- All-pairs gravitational accelerations, a few time steps.
type v3 = {x: f64, y: f64, z: f64}

def vsub (a: v3) (b: v3): v3 = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
def vadd (a: v3) (b: v3): v3 = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
def vscale (s: f64) (a: v3): v3 = {x = s * a.x, y = s * a.y, z = s * a.z}
def dot (a: v3) (b: v3): f64 = a.x * b.x + a.y * b.y + a.z * b.z

def accel (eps: f64) (pi: v3) (pj: v3) (mj: f64): v3 =
  let r = vsub pj pi
  let d2 = dot r r + eps
  let inv = 1.0 / f64.sqrt (d2 * d2 * d2)
  in vscale (mj * inv) r

def step [n] (dt: f64) (ps: [n]v3) (vs: [n]v3) (ms: [n]f64): ([n]v3, [n]v3) =
  let acc = map (\pi -> reduce vadd {x = 0, y = 0, z = 0} (map2 (accel 0.01 pi) ps ms)) ps
  let vs' = map2 (\v a -> vadd v (vscale dt a)) vs acc
  let ps' = map2 (\p v -> vadd p (vscale dt v)) ps vs'
  in (ps', vs')

entry main (n: i64) (steps: i32): f64 =
  let ps = tabulate n (\i -> let f = f64.i64 i in {x = f64.sin f, y = f64.cos f, z = f / f64.i64 n})
  let vs = replicate n {x = 0, y = 0, z = 0}
  let ms = tabulate n (\i -> 1.0 + f64.i64 (i % 3))
  let (ps, _) = loop (ps, vs) for _i < steps do step 0.01 ps vs ms
  in f64.sum (map (\p -> p.x + p.y + p.z) ps)
