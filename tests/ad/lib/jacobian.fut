-- Whole Jacobians of a function `[n]f64 -> [m]f64`, built four independent
-- ways, and a comparison of the four.  Row `i` of a Jacobian is the
-- derivative of output `i`; column `j` is the derivative with respect to
-- input `j`.  A library for the `tests/ad` programs: it has no test block.

-- | The `i`th unit vector of length `n`.
def onehot (n: i64) (i: i64) : [n]f64 =
  tabulate n (\j -> if i == j then 1 else 0)

-- | The `n` by `n` identity matrix: every one-hot seed at once.
def eye (n: i64) : [n][n]f64 =
  tabulate n (onehot n)

-- | The Jacobian column by column: one `jvp` per one-hot tangent.
def jac_jvp [n] (m: i64) (f: [n]f64 -> [m]f64) (x: [n]f64) : [m][n]f64 =
  transpose (map (\j -> jvp f x (onehot n j)) (iota n))

-- | The Jacobian row by row: one `vjp` per one-hot cotangent.
def jac_vjp [n] (m: i64) (f: [n]f64 -> [m]f64) (x: [n]f64) : [m][n]f64 =
  map (\i -> vjp f x (onehot m i)) (iota m)

-- | The Jacobian by `jmp` over the identity: all columns at once.
def jac_jmp [n] (m: i64) (f: [n]f64 -> [m]f64) (x: [n]f64) : [m][n]f64 =
  transpose (jmp f x (eye n))

-- | The Jacobian by `mjp` over the identity: all rows at once.
def jac_mjp [n] (m: i64) (f: [n]f64 -> [m]f64) (x: [n]f64) : [m][n]f64 =
  mjp f x (eye m)

-- | Whether two matrices agree within a relative tolerance `tol`.
def close [m] [n] (tol: f64) (a: [m][n]f64) (b: [m][n]f64) : bool =
  let near x y = f64.abs (x - y) <= tol * (1 + f64.abs x + f64.abs y)
  in and (map2 (\r s -> and (map2 near r s)) a b)

-- | Whether the four Jacobians of `f` at `x` agree within `1e-10`.
def agree [n] (m: i64) (f: [n]f64 -> [m]f64) (x: [n]f64) : bool =
  let a = jac_jvp m f x
  in close 1e-10 a (jac_vjp m f x)
     && close 1e-10 a (jac_jmp m f x)
     && close 1e-10 a (jac_mjp m f x)

-- | The Jacobian of `f` at `x` (by `vjp`), for expected outputs.
def jacobian [n] (m: i64) (f: [n]f64 -> [m]f64) (x: [n]f64) : [m][n]f64 =
  jac_vjp m f x
