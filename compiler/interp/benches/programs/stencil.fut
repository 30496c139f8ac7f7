-- Jacobi iterations of a 5-point stencil on a square grid.
def stencil [n] (g: [n][n]f32): [n][n]f32 =
  tabulate_2d n n (\i j ->
    if i == 0 || j == 0 || i == n - 1 || j == n - 1 then g[i, j]
    else 0.2f32 * (g[i, j] + g[i - 1, j] + g[i + 1, j] + g[i, j - 1] + g[i, j + 1]))

entry main (n: i64) (iters: i32): f32 =
  let g = tabulate_2d n n (\i j -> if i == 0 then 1f32 else f32.i64 (j % 3))
  let g = loop g for _i < iters do stencil g
  in f32.sum (flatten g)
