-- A vector-space module over records of 3-vectors, used by a gravitational n-body step.
-- ==
-- entry: vector_ops
-- input { 1.0 2.0 2.0 0.0 1.0 0.0 }
-- output { 3.0 2.0 -2.0 0.0 1.0 0.3333333333333333 0.6666666666666666 0.6666666666666666 2.0 }

-- ==
-- entry: two_body_step
-- input { 0.5 } output { [0.25, 0.75] [0.0, 0.0] [0.5, -0.5] [0.0, 0.0] }

type vec3 = {x: f64, y: f64, z: f64}

module vspace = {
  type v = vec3
  def zero : v = {x = 0, y = 0, z = 0}
  def add (a: v) (b: v) : v = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
  def sub (a: v) (b: v) : v = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
  def scale (k: f64) (a: v) : v = {x = k * a.x, y = k * a.y, z = k * a.z}
  def dot (a: v) (b: v) : f64 = a.x * b.x + a.y * b.y + a.z * b.z
  def cross (a: v) (b: v) : v =
    {x = a.y * b.z - a.z * b.y, y = a.z * b.x - a.x * b.z, z = a.x * b.y - a.y * b.x}
  def norm (a: v) : f64 = f64.sqrt (dot a a)
  def normalise (a: v) : v = scale (1 / norm a) a
  def sum [n] (vs: [n]v) : v = reduce add zero vs
}

-- | Acceleration on a body at `p` caused by a body of mass `m` at `q` (G = 1).
def accel (p: vec3) (q: vec3) (m: f64) : vec3 =
  let d = vspace.sub q p
  let r = vspace.norm d
  in if r == 0 then vspace.zero else vspace.scale (m / (r * r * r)) d

def step [n] (dt: f64) (ms: [n]f64) (ps: [n]vec3) (vs: [n]vec3) : ([n]vec3, [n]vec3) =
  let acc = map (\p -> vspace.sum (map2 (\q m -> accel p q m) ps ms)) ps
  let vs' = map2 (\v a -> vspace.add v (vspace.scale dt a)) vs acc
  let ps' = map2 (\p v -> vspace.add p (vspace.scale dt v)) ps vs'
  in (ps', vs')

entry vector_ops (ax: f64) (ay: f64) (az: f64) (bx: f64) (by: f64) (bz: f64)
    : (f64, f64, f64, f64, f64, f64, f64, f64, f64) =
  let a = {x = ax, y = ay, z = az}
  let b = {x = bx, y = by, z = bz}
  let c = vspace.cross a b
  let u = vspace.normalise a
  in (vspace.norm a, vspace.dot a b, c.x, c.y, c.z, u.x, u.y, u.z,
      vspace.norm (vspace.add a (vspace.scale (-1) a)) + 2)

entry two_body_step (dt: f64) : ([]f64, []f64, []f64, []f64) =
  let ms = [1.0, 1.0]
  let ps = [{x = 0.0, y = 0.0, z = 0.0}, {x = 1.0, y = 0.0, z = 0.0}]
  let vs = [vspace.zero, vspace.zero]
  let (ps', vs') = step dt ms ps vs
  in (map (.x) ps', map (.y) ps', map (.x) vs', map (.z) vs')
