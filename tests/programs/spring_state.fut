-- A size-parameterised record type for the state of n masses on springs,
-- advanced with a symplectic Euler integrator.
-- ==
-- input { [1.0, 0.0, -1.0] [0.0, 0.0, 0.0] 0.1 1 }
-- output { [0.99, 0.0, -0.99] [-0.1, 0.0, 0.1] 0.0 }
-- input { [1.0, 2.0] [0.5, -0.5] 0.1 0 }
-- output { [1.0, 2.0] [0.5, -0.5] 0.0 }
-- input { [2.0] [0.0] 0.5 2 }
-- output { [0.625] [-1.75] -1.75 }

type state [n] = {pos: [n]f64, vel: [n]f64}

def force [n] (s: state [n]) : [n]f64 = map (\x -> -x) s.pos

def step [n] (dt: f64) (s: state [n]) : state [n] =
  let vel = map2 (\v f -> v + dt * f) s.vel (force s)
  let pos = map2 (\x v -> x + dt * v) s.pos vel
  in {pos, vel}

def momentum [n] (s: state [n]) : f64 = f64.sum s.vel

def simulate [n] (dt: f64) (steps: i32) (s: state [n]) : state [n] =
  loop s for _i < steps do step dt s

def main [n] (pos: [n]f64) (vel: [n]f64) (dt: f64) (steps: i32) : ([n]f64, [n]f64, f64) =
  let s = simulate dt steps {pos, vel}
  in (s.pos, s.vel, momentum s)
