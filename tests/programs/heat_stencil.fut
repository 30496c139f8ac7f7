-- Heat diffusion with a five-point stencil, under fixed and periodic
-- boundaries; a higher-order `simulate` drives the time loop.
-- ==
-- entry: heat_dirichlet
-- input { 1 0.1 [[0.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- output { [[0.0, 0.0, 0.0, 0.0], [0.0, 60.0, 10.0, 0.0], [0.0, 10.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- input { 5 0.2 [[0.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- output { [[0.0, 0.0, 0.0, 0.0], [0.0, 1.9519999999999995, 1.9519999999999997, 0.0], [0.0, 1.9519999999999997, 1.9199999999999995, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- input { 3 0.25 [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]] }
-- output { [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]] }
-- input { 10 0.1 [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 10.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]] }
-- output { [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.28845309799999996, 0.42254329199999996, 0.28845309799999996, 0.0], [0.0, 0.33000514799999997, 0.48165819899999995, 0.33000514799999997, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]] }
-- input { 2 0.2 [[5.0, 1.0]] }
-- output { [[5.0, 1.0]] }

-- ==
-- entry: heat_periodic
-- input { 1 0.1 [[0.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- output { [[0.0, 10.0, 0.0, 5.0], [10.0, 60.0, 10.0, 0.0], [0.0, 10.0, 0.0, 5.0], [5.0, 0.0, 5.0, 30.0]] }
-- input { 5 0.2 [[0.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- output { [[8.64, 10.592, 8.64, 9.616], [10.592, 9.632, 10.592, 8.64], [8.64, 10.592, 8.64, 9.616], [9.616, 8.64, 9.616, 7.696]] }
-- input { 3 0.25 [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]] }
-- output { [[4.9375, 4.953125, 4.96875], [4.984375, 5.0, 5.015625], [5.03125, 5.046875, 5.0625]] }
-- input { 10 0.1 [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 10.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]] }
-- output { [[0.24184617, 0.44701212, 0.6005290520000001, 0.44701212, 0.24184617], [0.31797027, 0.55760663, 0.733729656, 0.55760663, 0.31797027], [0.4047607899999999, 0.6808377449999999, 0.8807903859999999, 0.6808377449999999, 0.40476079], [0.31797027, 0.55760663, 0.733729656, 0.55760663, 0.31797027]] }
-- input { 2 0.2 [[5.0, 1.0]] }
-- output { [[3.08, 2.92]] }

-- ==
-- entry: total_heat
-- input { 1 0.1 [[0.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- output { 150.0 130.0 }
-- input { 5 0.2 [[0.0, 0.0, 0.0, 0.0], [0.0, 100.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 50.0]] }
-- output { 150.0 57.775999999999996 }
-- input { 3 0.25 [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]] }
-- output { 45.0 45.0 }
-- input { 10 0.1 [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 10.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]] }
-- output { 10.0 2.1411179829999996 }
-- input { 2 0.2 [[5.0, 1.0]] }
-- output { 6.0 6.0 }

-- Explicit five-point stencil for the heat equation on an n-by-m grid.

-- Boundary cells are held fixed (Dirichlet conditions).
def step_dirichlet [n] [m] (alpha: f64) (u: [n][m]f64) : [n][m]f64 =
  tabulate_2d n m (\i j ->
    if i == 0 || i == n - 1 || j == 0 || j == m - 1 then u[i, j]
    else #[unsafe]
         let lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4 * u[i, j]
         in u[i, j] + alpha * lap)

-- Periodic boundaries, with neighbours found by rotating the grid.
def step_periodic [n] [m] (alpha: f64) (u: [n][m]f64) : [n][m]f64 =
  let up = rotate (-1) u
  let down = rotate 1 u
  let left = map (rotate (-1)) u
  let right = map (rotate 1) u
  in map5 (\c a b l r -> map5 (\x xa xb xl xr -> x + alpha * (xa + xb + xl + xr - 4 * x)) c a b l r)
          u up down left right

def simulate [n] [m] (step: [n][m]f64 -> [n][m]f64) (steps: i32) (u0: [n][m]f64) : [n][m]f64 =
  loop u = u0 for _i < steps do step u

entry heat_dirichlet [n] [m] (steps: i32) (alpha: f64) (u: [n][m]f64) : [n][m]f64 =
  simulate (step_dirichlet alpha) steps u

entry heat_periodic [n] [m] (steps: i32) (alpha: f64) (u: [n][m]f64) : [n][m]f64 =
  simulate (step_periodic alpha) steps u

-- With periodic boundaries the total heat is conserved; with fixed
-- boundaries it is not.
entry total_heat [n] [m] (steps: i32) (alpha: f64) (u: [n][m]f64) : (f64, f64) =
  let total (v: [n][m]f64) = f64.sum (flatten v)
  in (total (simulate (step_periodic alpha) steps u), total (simulate (step_dirichlet alpha) steps u))
