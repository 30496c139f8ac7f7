-- Hessians by vjp of vjp (reverse over reverse) of functions whose maps read
-- their argument at computed indices (gathers).  The inner vjp turns those
-- reads into accumulator updates (with_acc/update_acc), which the outer vjp
-- then differentiates in reverse mode.  Each result is compared with the
-- Hessian (or Hessian-vector product) computed by jvp of vjp, and with one
-- computed by hand.
--
-- sq x = sum_{i in idx} x[i]^2: H = diag(2 c), c[j] the number of times
--   idx holds j.
-- cyc x = sum_i x[i] * x[(i+1) % n]: (H v)[j] = v[(j+1) % n] + v[(j-1) % n].
-- rows m = sum_{i in idx} |m[i]|^2 * m[i][0] reads whole rows:
--   checked against jvp of vjp.
-- outer x = sum_{i in idx} sum_{j in idx} x[i] * x[j] (nested maps sharing
--   one accumulator) = (sum_{i in idx} x[i])^2: H = 2 c c^T.
-- k and l read under a condition and in a loop (as in nested_hvp_gather.fut):
--   (H_k v)[j] = v[j-1] (j > 0) + v[j+1] (j < n-1), H_l = H_cyc.
-- cube x = sum_{i in idx} x[i]^2 * x[(i+1) % n] on integers (differentiated
--   with integer arithmetic): for idx = [0, 2, 2, 1],
--   H = [[2x1, 2x0, 4x2], [2x0, 2x2, 2x1], [4x2, 2x1, 4x0]].
-- tri x = sum_i x[i]^2 * x[(i+1) % n] has third derivatives 2 at (i, i, i+1)
--   and its permutations, so T(v, w)[k] = 2 (v[k] w[k+1] + v[k+1] w[k])
--   + 2 v[k-1] w[k-1] (cyclically): computed by jvp of vjp of vjp, vjp of
--   vjp of vjp and vjp of jvp of vjp.
-- qform is ADBench GMM's quadratic form through a lower-triangular matrix
--   read at computed indices under a condition: checked against jvp of vjp
--   and finite differences of gradients.
-- ==
-- entry: hess_sq
-- input { [1.0, -2.0, 0.5, 3.0] [0i64, 2i64, 2i64, 3i64, 0i64, 2i64] }
-- output { [[4.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 6.0, 0.0], [0.0, 0.0, 0.0, 2.0]] }
-- input { [1.0, 2.0] empty([0]i64) }
-- output { [[0.0, 0.0], [0.0, 0.0]] }

-- ==
-- entry: hess_sq_agrees
-- input { [1.0, -2.0, 0.5, 3.0] [0i64, 2i64, 2i64, 3i64, 0i64, 2i64] }
-- output { true }

-- ==
-- entry: hvp_cyc
-- input { [1.0, 2.0, 0.5, 3.0, -1.5] [1.0, 0.0, 2.0, -1.0, 0.5] }
-- output { [0.5, 3.0, -1.0, 2.5, 0.0] }

-- ==
-- entry: hvp_cyc_agrees
-- input { [1.0, 2.0, 0.5, 3.0, -1.5] [1.0, 0.0, 2.0, -1.0, 0.5] }
-- output { true }
-- input { [0.25, -2.0, 4.0] [3.0, -1.0, 0.5] }
-- output { true }

-- ==
-- entry: hvp_rows_agrees
-- input { [[1.0, 2.0, -1.0], [0.5, -0.25, 3.0], [2.0, 1.0, 1.5]] [2i64, 0i64, 2i64, 1i64]
--         [[1.0, 0.0, -1.0], [2.0, 0.5, 1.0], [-1.0, 1.0, 0.25]] }
-- output { true }

-- ==
-- entry: hess_outer
-- input { [1.0, -2.0, 0.5] [0i64, 2i64, 2i64] }
-- output { [[2.0, 0.0, 4.0], [0.0, 0.0, 0.0], [4.0, 0.0, 8.0]] }

-- ==
-- entry: hess_outer_agrees
-- input { [1.0, -2.0, 0.5, 0.75] [0i64, 2i64, 2i64, 3i64, 1i64] }
-- output { true }

-- ==
-- entry: hvp_cond_loop
-- input { [1.0, 2.0, 0.5, 3.0, -1.5] [1.0, 0.0, 2.0, -1.0, 0.5] }
-- output { true }

-- ==
-- entry: hvp_int hvp_int_fwd
-- input { [1i64, 2i64, -3i64] [0i64, 2i64, 2i64, 1i64] [1i64, -1i64, 2i64] }
-- output { [-22i64, 16i64, -8i64] }

-- ==
-- entry: third_jvv third_vvv third_vjv
-- input { [1.0, 2.0, -3.0, 0.5] [1.0, -1.0, 2.0, 0.5] [0.25, 1.0, -2.0, 3.0] }
-- output { [4.5, 8.5, 8.0, -1.75] }

-- ==
-- entry: hvp_qform_agrees
-- input { [0.5, -0.25, 0.1, 1.5, -2.0, 0.75] [1.0, 2.0, -1.0] [0.3, -1.0, 0.5, 2.0, 0.25, -0.5] }
-- output { true }

import "lib/jacobian"

def close1 (a: f64) (b: f64) : bool = f64.abs (a - b) <= 1e-9 * (1 + f64.abs a + f64.abs b)

def all_close [n] (a: [n]f64) (b: [n]f64) : bool = and (map2 close1 a b)

def all_close2 [m] [n] (a: [m][n]f64) (b: [m][n]f64) : bool = and (map2 all_close a b)

def sq [n] [m] (idx: [m]i64) (xs: [n]f64) : f64 = f64.sum (map (\i -> xs[i] * xs[i]) idx)

def grad_sq [n] [m] (idx: [m]i64) (xs: [n]f64) : [n]f64 = vjp (sq idx) xs 1

entry hess_sq [n] [m] (xs: [n]f64) (idx: [m]i64) : [n][n]f64 =
  map (\e -> vjp (grad_sq idx) xs e) (eye n)

entry hess_sq_agrees [n] [m] (xs: [n]f64) (idx: [m]i64) : bool =
  let c = hist (+) 0 n idx (replicate m 1i64)
  let hand = tabulate_2d n n (\i j -> if i == j then 2 * f64.i64 c[i] else 0)
  let rr = map (\e -> vjp (grad_sq idx) xs e) (eye n)
  let fr = map (\e -> jvp (grad_sq idx) xs e) (eye n)
  let mj = mjp (grad_sq idx) xs (eye n)
  in all_close2 rr hand && all_close2 fr hand && all_close2 mj hand

def cyc [n] (xs: [n]f64) : f64 = f64.sum (map (\i -> xs[i] * xs[(i + 1) % n]) (iota n))

entry hvp_cyc [n] (xs: [n]f64) (v: [n]f64) : [n]f64 =
  vjp (\p -> vjp cyc p 1) xs v

entry hvp_cyc_agrees [n] (xs: [n]f64) (v: [n]f64) : bool =
  let hand = tabulate n (\j -> v[(j + 1) % n] + v[(j + n - 1) % n])
  let a = vjp (\p -> vjp cyc p 1) xs v
  let b = jvp (\p -> vjp cyc p 1) xs v
  in all_close a hand && all_close b hand

def rows [n] [k] [m] (idx: [m]i64) (ms: [n][k]f64) : f64 =
  f64.sum (map (\i -> let r = ms[i] in f64.sum (map (\x -> x * x) r) * r[0]) idx)

entry hvp_rows_agrees [n] [k] [m] (ms: [n][k]f64) (idx: [m]i64) (v: [n][k]f64) : bool =
  let a = vjp (\p -> vjp (rows idx) p 1) ms v
  let b = jvp (\p -> vjp (rows idx) p 1) ms v
  let c = vjp (\p -> jvp (rows idx) p v) ms 1
  in all_close2 a b && all_close2 a c

def outer [n] [m] (idx: [m]i64) (xs: [n]f64) : f64 =
  f64.sum (map (\i -> f64.sum (map (\j -> xs[i] * xs[j]) idx)) idx)

def grad_outer [n] [m] (idx: [m]i64) (xs: [n]f64) : [n]f64 = vjp (outer idx) xs 1

entry hess_outer [n] [m] (xs: [n]f64) (idx: [m]i64) : [n][n]f64 =
  map (\e -> vjp (grad_outer idx) xs e) (eye n)

entry hess_outer_agrees [n] [m] (xs: [n]f64) (idx: [m]i64) : bool =
  let c = hist (+) 0 n idx (replicate m 1f64)
  let hand = tabulate_2d n n (\i j -> 2 * c[i] * c[j])
  let rr = map (\e -> vjp (grad_outer idx) xs e) (eye n)
  let fr = map (\e -> jvp (grad_outer idx) xs e) (eye n)
  in all_close2 rr hand && all_close2 fr hand

def k [n] (xs: [n]f64) : f64 =
  f64.sum (map (\i -> if i > 0 then xs[i] * xs[i - 1] else xs[0] * 2) (iota n))

def l [n] (xs: [n]f64) : f64 =
  f64.sum (map (\i -> loop a = 1 for j < 2 do a * xs[(i + j) % n]) (iota n))

entry hvp_cond_loop [n] (xs: [n]f64) (v: [n]f64) : bool =
  let hand_k = tabulate n (\j -> (if j > 0 then v[j - 1] else 0) + (if j < n - 1 then v[j + 1] else 0))
  let hand_l = tabulate n (\j -> v[(j + 1) % n] + v[(j + n - 1) % n])
  in all_close (vjp (\p -> vjp k p 1) xs v) hand_k
     && all_close (vjp (\p -> vjp l p 1) xs v) hand_l

def lower_index (d: i64) (r: i64) (c: i64) : i64 =
  d + c * (d - 1) - c * (c - 1) / 2 + (r - c - 1)

def qform [t] [d] (y: [d]f64) (icf: [t]f64) : f64 =
  let qy = tabulate d (\r -> f64.exp icf[r] * y[r]
                             + f64.sum (map (\c -> if c < r then icf[lower_index d r c] * y[c] else 0)
                                            (iota d)))
  in f64.sum (map (\z -> z * z) qy)

entry hvp_qform_agrees [t] [d] (icf: [t]f64) (y: [d]f64) (v: [t]f64) : bool =
  let a = vjp (\p -> vjp (qform y) p 1) icf v
  let b = jvp (\p -> vjp (qform y) p 1) icf v
  let eps = 1e-6
  let grad p = vjp (qform y) p 1
  let fd = map2 (\gp gm -> (gp - gm) / (2 * eps))
                (grad (map2 (\x e -> x + eps * e) icf v))
                (grad (map2 (\x e -> x - eps * e) icf v))
  in all_close a b && and (map2 (\x z -> f64.abs (x - z) <= 1e-5 * (1 + f64.abs x)) a fd)

def cube [n] [m] (idx: [m]i64) (xs: [n]i64) : i64 =
  i64.sum (map (\i -> xs[i] * xs[i] * xs[(i + 1) % n]) idx)

def grad_cube [n] [m] (idx: [m]i64) (xs: [n]i64) : [n]i64 = vjp (cube idx) xs 1

entry hvp_int [n] [m] (xs: [n]i64) (idx: [m]i64) (v: [n]i64) : [n]i64 =
  vjp (grad_cube idx) xs v

entry hvp_int_fwd [n] [m] (xs: [n]i64) (idx: [m]i64) (v: [n]i64) : [n]i64 =
  jvp (grad_cube idx) xs v

def tri [n] (xs: [n]f64) : f64 = f64.sum (map (\i -> xs[i] * xs[i] * xs[(i + 1) % n]) (iota n))

def grad_tri [n] (xs: [n]f64) : [n]f64 = vjp tri xs 1

entry third_jvv [n] (xs: [n]f64) (v: [n]f64) (w: [n]f64) : [n]f64 =
  jvp (\p -> vjp grad_tri p v) xs w

entry third_vvv [n] (xs: [n]f64) (v: [n]f64) (w: [n]f64) : [n]f64 =
  vjp (\p -> vjp grad_tri p v) xs w

entry third_vjv [n] (xs: [n]f64) (v: [n]f64) (w: [n]f64) : [n]f64 =
  vjp (\p -> jvp grad_tri p v) xs w
