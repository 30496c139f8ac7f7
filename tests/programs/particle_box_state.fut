-- Particles in a box under gravity, with a size-parameterised state record
-- `state [n]` holding arrays of 3-vector records; the floor damps bounces and
-- the side walls reflect.  All constants are dyadic, so f32 results are exact.
-- ==
-- entry: simulate
-- input { 4 0.5f32 [0.0f32, 1.0f32] [0.0f32, -2.0f32] [1.0f32, 3.0f32] [1.0f32, 0.5f32] [0.0f32, 4.0f32] [0.0f32, -1.0f32] }
-- output { [2.0f32, 2.0f32] [0.0f32, 6.0f32] [0.0f32, 2.0f32] }
-- input { 10 0.25f32 [7.5f32, -7.0f32, 0.0f32] [0.0f32, 1.0f32, 2.0f32] [0.5f32, 2.0f32, 8.0f32] [4.0f32, -3.0f32, 0.0f32] [0.0f32, 0.0f32, 1.5f32] [2.0f32, 0.0f32, -4.0f32] }
-- output { [-1.5f32, -1.5f32, 0.0f32] [0.0f32, 1.0f32, 5.75f32] [0.8125f32, 0.875f32, 2.875f32] }
-- input { 0 0.5f32 [1.0f32] [2.0f32] [3.0f32] [0.0f32] [0.0f32] [0.0f32] }
-- output { [1.0f32] [2.0f32] [3.0f32] }

-- ==
-- entry: bounces
-- input { 4 0.5f32 [0.0f32, 1.0f32] [0.0f32, -2.0f32] [1.0f32, 3.0f32] [1.0f32, 0.5f32] [0.0f32, 4.0f32] [0.0f32, -1.0f32] }
-- output { [1, 1] }
-- input { 10 0.25f32 [7.5f32, -7.0f32, 0.0f32] [0.0f32, 1.0f32, 2.0f32] [0.5f32, 2.0f32, 8.0f32] [4.0f32, -3.0f32, 0.0f32] [0.0f32, 0.0f32, 1.5f32] [2.0f32, 0.0f32, -4.0f32] }
-- output { [1, 1, 1] }
-- input { 0 0.5f32 [1.0f32] [2.0f32] [3.0f32] [0.0f32] [0.0f32] [0.0f32] }
-- output { [0] }

-- ==
-- entry: kinetic
-- input { 4 0.5f32 [0.0f32, 1.0f32] [0.0f32, -2.0f32] [1.0f32, 3.0f32] [1.0f32, 0.5f32] [0.0f32, 4.0f32] [0.0f32, -1.0f32] }
-- output { 9.625f32 }
-- input { 10 0.25f32 [7.5f32, -7.0f32, 0.0f32] [0.0f32, 1.0f32, 2.0f32] [0.5f32, 2.0f32, 8.0f32] [4.0f32, -3.0f32, 0.0f32] [0.0f32, 0.0f32, 1.5f32] [2.0f32, 0.0f32, -4.0f32] }
-- output { 15.15625f32 }
-- input { 0 0.5f32 [1.0f32] [2.0f32] [3.0f32] [0.0f32] [0.0f32] [0.0f32] }
-- output { 0.0f32 }

type vec3 = {x: f32, y: f32, z: f32}

type state [n] = {pos: [n]vec3, vel: [n]vec3, bounces: [n]i32}

local def vadd (a: vec3) (b: vec3) : vec3 = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
local def vscale (s: f32) (a: vec3) : vec3 = {x = s * a.x, y = s * a.y, z = s * a.z}

def gravity : f32 = -2
def restitution : f32 = 0.5
def wall : f32 = 8

-- Reflect one coordinate at the side walls of the box.
local def reflect (p: f32) (v: f32) : (f32, f32) =
  if p > wall then (2 * wall - p, -v)
  else if p < -wall then (-2 * wall - p, -v)
  else (p, v)

def init [n] (px: [n]f32) (py: [n]f32) (pz: [n]f32) (vx: [n]f32) (vy: [n]f32) (vz: [n]f32) : state [n] =
  { pos = map3 (\x y z -> {x, y, z}) px py pz
  , vel = map3 (\x y z -> {x, y, z}) vx vy vz
  , bounces = replicate n 0 }

def step [n] (dt: f32) (s: state [n]) : state [n] =
  let moved =
    map3 (\p v b ->
            let v = v with z = v.z + dt * gravity
            let p = vadd p (vscale dt v)
            let (p, v, b) =
              if p.z < 0 then (p with z = -p.z, v with z = -v.z * restitution, b + 1) else (p, v, b)
            let (px, vx) = reflect p.x v.x
            let (py, vy) = reflect p.y v.y
            in ({x = px, y = py, z = p.z}, {x = vx, y = vy, z = v.z}, b))
         s.pos s.vel s.bounces
  let (pos, vel, bounces) = unzip3 moved
  in {pos, vel, bounces}

def run [n] (steps: i32) (dt: f32) (s0: state [n]) : state [n] =
  loop s = s0 for _i < steps do step dt s

def kinetic_energy [n] (s: state [n]) : f32 =
  f32.sum (map (\v -> 0.5 * (v.x * v.x + v.y * v.y + v.z * v.z)) s.vel)

entry simulate [n] (steps: i32) (dt: f32) (px: [n]f32) (py: [n]f32) (pz: [n]f32)
                   (vx: [n]f32) (vy: [n]f32) (vz: [n]f32) : ([n]f32, [n]f32, [n]f32) =
  let s = run steps dt (init px py pz vx vy vz)
  in (map (.x) s.pos, map (.y) s.pos, map (.z) s.pos)

entry bounces [n] (steps: i32) (dt: f32) (px: [n]f32) (py: [n]f32) (pz: [n]f32)
                  (vx: [n]f32) (vy: [n]f32) (vz: [n]f32) : [n]i32 =
  (run steps dt (init px py pz vx vy vz)).bounces

entry kinetic [n] (steps: i32) (dt: f32) (px: [n]f32) (py: [n]f32) (pz: [n]f32)
                  (vx: [n]f32) (vy: [n]f32) (vz: [n]f32) : f32 =
  kinetic_energy (run steps dt (init px py pz vx vy vz))
