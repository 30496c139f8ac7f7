-- Escape-time iteration counts for the Mandelbrot set on a tiny grid.
-- ==
-- input { 3i64 4i64 20 }
-- output { [[1, 3, 4, 4], [20, 20, 20, 20], [1, 3, 4, 4]] 104 }

def escape (limit: i32) (cr: f64) (ci: f64) : i32 =
  let (_, _, n) =
    loop (zr, zi, n) = (0.0, 0.0, 0) while n < limit && zr * zr + zi * zi <= 4.0 do
      (zr * zr - zi * zi + cr, 2.0 * zr * zi + ci, n + 1)
  in n

def main (h: i64) (w: i64) (limit: i32) : ([h][w]i32, i32) =
  let grid =
    tabulate_2d h w (\i j ->
      let cr = -2.0 + 3.0 * f64.i64 j / f64.i64 w
      let ci = -1.0 + 2.0 * f64.i64 i / f64.i64 (h - 1)
      in escape limit cr ci)
  in (grid, i32.sum (flatten grid))
