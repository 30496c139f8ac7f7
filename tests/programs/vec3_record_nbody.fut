-- Records of 3-vectors from a vector-space module (a functor over `real`),
-- used for centre of mass, angular momentum and a softened n-body integrator.
-- Positions and velocities are passed flattened, three numbers per body.
-- ==
-- entry: center_of_mass
-- input { [1.0, 2.0, 1.5] [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 1.0] }
-- output { 0.4444444444444444 0.6666666666666666 0.3333333333333333 }
-- input { [3.0, 1.0] [1.0, 1.0, 1.0, -1.0, 2.0, 0.5] }
-- output { 0.5 1.25 0.875 }
-- input { [1.0, 1.0, 1.0, 2.0] [1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0] }
-- output { 0.0 0.2 -0.4 }

-- ==
-- entry: angular_momentum
-- input { [1.0, 2.0, 1.5] [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 1.0] [0.0, 0.5, 0.0, 0.0, -1.0, 0.25, 0.5, 0.0, 0.0] }
-- output { [-0.8333333333333334, 0.2222222222222222, -2.3333333333333335] }
-- input { [3.0, 1.0] [1.0, 1.0, 1.0, -1.0, 2.0, 0.5] [0.1, 0.2, 0.3, -0.3, 0.0, 0.1] }
-- output { [-0.22500000000000003, -0.14999999999999997, 0.6] }
-- input { [1.0, 1.0, 1.0, 2.0] [1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0] [0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5] }
-- output { [-0.2, 0.4, 1.2] }

-- ==
-- entry: nbody
-- input { 3 [1.0, 2.0, 1.5] [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 1.0] [0.0, 0.5, 0.0, 0.0, -1.0, 0.25, 0.5, 0.0, 0.0] }
-- output { [0.0011826669172857848, 0.015149059068097727, 8.255292776306302e-05, 0.9993481657474294, -0.029872005237406123, 0.007559750532503826, 0.015080667725236977, 1.9997299676044762, 0.9998652973381528] [0.05914399317606286, 0.5071664749912426, 0.0041850640590989484, -0.03258248551366909, -0.9934545296445669, 0.25295421344307517, 0.5040139852341836, -0.01350494380140574, -0.00672899396349951] }
-- input { 3 [3.0, 1.0] [1.0, 1.0, 1.0, -1.0, 2.0, 0.5] [0.1, 0.2, 0.3, -0.3, 0.0, 0.1] }
-- output { [1.0029006544162906, 1.0060495409291146, 1.0089751306383876, -1.0087019632488712, 1.999851377212656, 0.5030746080848374] [0.09503586564318318, 0.20247218376237885, 0.2987564955567884, -0.28510759692954957, -0.007416551287136511, 0.10373051332963479] }
-- input { 3 [1.0, 1.0, 1.0, 2.0] [1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0] [0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5] }
-- output { [0.9992137969180132, 0.030209614940983287, -0.00042185644129854417, -0.9992193779856139, -0.02978829004457249, -0.0004218562165800964, 0.03000273953916345, 0.999155374075179, -0.0004218803731621337, 1.4207642185797206e-06, 0.00021165051420509134, -0.9843672034844795] [-0.039439192837448324, 1.0104578731793692, -0.021111886847132062, 0.039020501116076425, -0.9893845176285877, -0.02111186437528728, 1.0002052800617929, -0.04229385252282258, -0.021113802039304637, 0.00010670582978955234, 0.010610248486020556, 0.531668776630862] }

-- ==
-- entry: energy_drift
-- input { [1.0, 2.0, 1.5] [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 1.0] [0.0, 0.5, 0.0, 0.0, -1.0, 0.25, 0.5, 0.0, 0.0] }
-- output { -5.478470015862769e-06 }
-- input { [3.0, 1.0] [1.0, 1.0, 1.0, -1.0, 2.0, 0.5] [0.1, 0.2, 0.3, -0.3, 0.0, 0.1] }
-- output { -1.1040615024437983e-06 }
-- input { [1.0, 1.0, 1.0, 2.0] [1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0] [0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5] }
-- output { -2.502480044341837e-05 }

module type vector_space = {
  type real
  type vec
  val zero : vec
  val +^ : vec -> vec -> vec
  val -^ : vec -> vec -> vec
  val scale : real -> vec -> vec
  val dot : vec -> vec -> real
  val cross : vec -> vec -> vec
  val norm : vec -> real
}

module mk_vec3 (R: real) : vector_space with real = R.t with vec = {x: R.t, y: R.t, z: R.t} = {
  type real = R.t
  type vec = {x: real, y: real, z: real}
  def zero : vec = {x = R.i64 0, y = R.i64 0, z = R.i64 0}
  def (a: vec) +^ (b: vec) : vec = {x = a.x R.+ b.x, y = a.y R.+ b.y, z = a.z R.+ b.z}
  def (a: vec) -^ (b: vec) : vec = {x = a.x R.- b.x, y = a.y R.- b.y, z = a.z R.- b.z}
  def scale (s: real) ({x, y, z}: vec) : vec = {x = s R.* x, y = s R.* y, z = s R.* z}
  def dot (a: vec) (b: vec) : real = a.x R.* b.x R.+ a.y R.* b.y R.+ a.z R.* b.z
  def cross (a: vec) (b: vec) : vec =
    { x = a.y R.* b.z R.- a.z R.* b.y
    , y = a.z R.* b.x R.- a.x R.* b.z
    , z = a.x R.* b.y R.- a.y R.* b.x }
  def norm (a: vec) : real = R.sqrt (dot a a)
}

module v3 = mk_vec3 f64
type vec = v3.vec
def (+^) = (v3.+^)
def (-^) = (v3.-^)

local def to_vecs [n] (flat: [n * 3]f64) : [n]vec =
  map (\r -> {x = r[0], y = r[1], z = r[2]}) (unflatten flat)

local def from_vecs [n] (vs: [n]vec) : [n * 3]f64 =
  flatten (map (\(v: vec) -> [v.x, v.y, v.z]) vs)

def sum_vecs [n] (vs: [n]vec) : vec = reduce (+^) v3.zero vs

def com [n] (ms: [n]f64) (ps: [n]vec) : vec =
  v3.scale (1 / f64.sum ms) (sum_vecs (map2 v3.scale ms ps))

def accel [n] (eps: f64) (ms: [n]f64) (ps: [n]vec) (p: vec) : vec =
  sum_vecs (map2 (\m q ->
                    let d = q -^ p
                    let r2 = v3.dot d d + eps * eps
                    in v3.scale (m / (r2 * f64.sqrt r2)) d) ms ps)

def step [n] (dt: f64) (eps: f64) (ms: [n]f64) (ps: [n]vec, vs: [n]vec) : ([n]vec, [n]vec) =
  let acc = map (accel eps ms ps) ps
  let vs' = map2 (\v a -> v +^ v3.scale dt a) vs acc
  let ps' = map2 (\p v -> p +^ v3.scale dt v) ps vs'
  in (ps', vs')

def energy [n] (eps: f64) (ms: [n]f64) (ps: [n]vec) (vs: [n]vec) : f64 =
  let kinetic = f64.sum (map2 (\m v -> 0.5 * m * v3.dot v v) ms vs)
  let potential =
    f64.sum (map (\i ->
                    f64.sum (map (\j ->
                                    if i < j
                                    then let d = ps[j] -^ ps[i]
                                         in -(ms[i] * ms[j]) / f64.sqrt (v3.dot d d + eps * eps)
                                    else 0) (iota n))) (iota n))
  in kinetic + potential

entry center_of_mass [n] (ms: [n]f64) (ps: [n * 3]f64) : (f64, f64, f64) =
  let c = com ms (to_vecs ps) in (c.x, c.y, c.z)

entry angular_momentum [n] (ms: [n]f64) (ps: [n * 3]f64) (vs: [n * 3]f64) : [3]f64 =
  let ps = to_vecs ps
  let c = com ms ps
  let l = sum_vecs (map3 (\m p v -> v3.scale m (v3.cross (p -^ c) v)) ms ps (to_vecs vs))
  in [l.x, l.y, l.z]

entry nbody [n] (steps: i32) (ms: [n]f64) (ps: [n * 3]f64) (vs: [n * 3]f64) : ([n * 3]f64, [n * 3]f64) =
  let (ps, vs) = loop st = (to_vecs ps, to_vecs vs) for _i < steps do step 0.01 0.1 ms st
  in (from_vecs ps, from_vecs vs)

entry energy_drift [n] (ms: [n]f64) (ps: [n * 3]f64) (vs: [n * 3]f64) : f64 =
  let ps0 = to_vecs ps
  let vs0 = to_vecs vs
  let (ps1, vs1) = loop st = (ps0, vs0) for _i < 5 do step 0.001 0.1 ms st
  in energy 0.1 ms ps1 vs1 - energy 0.1 ms ps0 vs0
