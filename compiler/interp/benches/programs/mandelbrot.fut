-- Escape-time counts of the Mandelbrot set on a small grid.
def escape (limit: i32) (cr: f64) (ci: f64): i32 =
  let (_, _, it) =
    loop (zr, zi, it) = (0f64, 0f64, 0i32) while it < limit && zr * zr + zi * zi < 4f64 do
      (zr * zr - zi * zi + cr, 2f64 * zr * zi + ci, it + 1)
  in it

entry main (n: i64) (limit: i32): i32 =
  let counts = tabulate_2d n n (\i j ->
    escape limit (-2f64 + 3f64 * f64.i64 j / f64.i64 n) (-1.5f64 + 3f64 * f64.i64 i / f64.i64 n))
  in i32.sum (flatten counts)
