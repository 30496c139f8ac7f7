-- Escape-time rendering of a Julia set with a small complex-number module and
-- a `loop ... while`.
-- ==
-- entry: julia
-- input { 3i64 4i64 -0.8 0.156 50 }
-- output { [[1, 2, 2, 1], [4, 31, 31, 4], [1, 2, 2, 1]] }
-- input { 5i64 5i64 0.285 0.01 30 }
-- output { [[1, 2, 6, 3, 1], [1, 30, 21, 30, 1], [1, 5, 19, 5, 1], [1, 30, 21, 30, 1], [1, 3, 6, 2, 1]] }
-- input { 4i64 6i64 -0.4 0.6 100 }
-- output { [[1, 1, 2, 3, 2, 1], [1, 2, 6, 100, 31, 2], [2, 31, 100, 6, 2, 1], [1, 2, 3, 2, 1, 1]] }

-- ==
-- entry: escape
-- input { 0.0 0.0 0.25 0.0 40 }
-- output { 40 }
-- input { 1.0 1.0 0.0 0.0 40 }
-- output { 2 }
-- input { 0.5 0.5 -0.8 0.156 40 }
-- output { 4 }
-- input { 2.5 0.0 0.0 0.0 40 }
-- output { 0 }

-- ==
-- entry: area
-- input { 3i64 4i64 -0.8 0.156 50 }
-- output { 0i64 }
-- input { 5i64 5i64 0.285 0.01 30 }
-- output { 4i64 }
-- input { 4i64 6i64 -0.4 0.6 100 }
-- output { 2i64 }

module complex = {
  type t = {re: f64, im: f64}
  def mk (re: f64) (im: f64) : t = {re, im}
  def add (a: t) (b: t) : t = {re = a.re + b.re, im = a.im + b.im}
  def sq (a: t) : t = {re = a.re * a.re - a.im * a.im, im = 2 * a.re * a.im}
  def mag2 (a: t) : f64 = a.re * a.re + a.im * a.im
}

-- Number of iterations of z := z^2 + c before |z| > 2, at most `limit`.
def escape_time (limit: i32) (c: complex.t) (z0: complex.t) : i32 =
  let (_, i) =
    loop (z, i) = (z0, 0) while i < limit && complex.mag2 z <= 4 do
      (complex.(add (sq z) c), i + 1)
  in i

-- The plane [-1.5, 1.5] x [-1, 1] sampled on an h-by-w grid.
def julia_grid (h: i64) (w: i64) (c: complex.t) (limit: i32) : [h][w]i32 =
  let coord k n lo span = if n > 1 then lo + span * f64.i64 k / f64.i64 (n - 1) else 0
  in tabulate_2d h w (\i j -> escape_time limit c (complex.mk (coord j w (-1.5) 3) (coord i h (-1) 2)))

entry julia (h: i64) (w: i64) (cr: f64) (ci: f64) (limit: i32) : [h][w]i32 =
  julia_grid h w (complex.mk cr ci) limit

entry escape (zr: f64) (zi: f64) (cr: f64) (ci: f64) (limit: i32) : i32 =
  escape_time limit (complex.mk cr ci) (complex.mk zr zi)

-- How many grid points never escape.
entry area (h: i64) (w: i64) (cr: f64) (ci: f64) (limit: i32) : i64 =
  julia_grid h w (complex.mk cr ci) limit |> flatten |> map (\k -> i64.bool (k == limit)) |> i64.sum
