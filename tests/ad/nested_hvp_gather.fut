-- Hessian-vector products of functions whose maps read their argument at
-- computed indices (gathers).  The reverse pass turns those reads into
-- accumulator updates (with_acc/update_acc), which the forward pass then
-- differentiates: a jvp of a vjp.  Each product is compared with values
-- computed by hand and with the vjp of a jvp.
--
-- f x = sum_i x[i] * x[(i+1) % n] (cyclic), so for n >= 3
--   (H v)[j] = v[(j+1) % n] + v[(j-1) % n].
-- g x = sum_i x[idx[i]]^3 with an index array that repeats entries, so
--   (H v)[j] = 6 c[j] x[j] v[j], c[j] the number of times idx holds j.
-- h x = sum_i x[i] * exp(x[idx[i]]) mixes a row read with a gather:
--   checked against the vjp of a jvp and a finite difference of gradients.
-- k x = 2 x[0] + sum_{i>0} x[i] * x[i-1] reads under a condition, and
-- l x = sum_i (loop a = 1 for j < 2 do a * x[(i+j) % n]) in a loop (l = f):
--   (H_k v)[j] = v[j-1] (j > 0) + v[j+1] (j < n-1).
-- q icf = |Q y|² with Q lower triangular, its strictly-lower entries read
--   from icf at computed indices under a condition (as in ADBench's GMM
--   objective): checked against the vjp of a jvp and finite differences.
-- ==
-- entry: hvp_f_hand
-- input { [1.0, 2.0, 0.5, 3.0, -1.5] [1.0, 0.0, 2.0, -1.0, 0.5] }
-- output { true }
-- input { [0.25, -2.0, 4.0] [3.0, -1.0, 0.5] }
-- output { true }

-- ==
-- entry: hvp_f
-- input { [1.0, 2.0, 0.5, 3.0, -1.5] [1.0, 0.0, 2.0, -1.0, 0.5] }
-- output { [0.5, 3.0, -1.0, 2.5, 0.0] }

-- ==
-- entry: hvp_g_hand
-- input { [1.0, -2.0, 0.5, 3.0] [0i64, 2i64, 2i64, 3i64, 0i64, 2i64] [1.0, 2.0, -1.0, 0.5] }
-- output { true }

-- ==
-- entry: hvp_g
-- input { [1.0, -2.0, 0.5, 3.0] [0i64, 2i64, 2i64, 3i64, 0i64, 2i64] [1.0, 2.0, -1.0, 0.5] }
-- output { [12.0, 0.0, -9.0, 9.0] }

-- ==
-- entry: hvp_h_agrees
-- input { [0.5, -1.0, 0.25, 1.5] [3i64, 0i64, 0i64, 2i64] [1.0, -0.5, 2.0, 0.75] }
-- output { true }

-- ==
-- entry: hvp_cond_loop_hand
-- input { [1.0, 2.0, 0.5, 3.0, -1.5] [1.0, 0.0, 2.0, -1.0, 0.5] }
-- output { true }

-- ==
-- entry: hvp_qform_agrees
-- input { [0.5, -0.25, 0.1, 1.5, -2.0, 0.75] [1.0, 2.0, -1.0] [0.3, -1.0, 0.5, 2.0, 0.25, -0.5] }
-- output { true }

def close (a: f64) (b: f64) : bool = f64.abs (a - b) <= 1e-9 * (1 + f64.abs a + f64.abs b)

def all_close [n] (a: [n]f64) (b: [n]f64) : bool = and (map2 close a b)

def f [n] (xs: [n]f64) : f64 = f64.sum (map (\i -> xs[i] * xs[(i + 1) % n]) (iota n))

def g [n] [m] (idx: [m]i64) (xs: [n]f64) : f64 =
  f64.sum (map (\i -> let y = xs[i] in y * y * y) idx)

def h [n] (idx: [n]i64) (xs: [n]f64) : f64 =
  f64.sum (map2 (\x i -> x * f64.exp xs[i]) xs idx)

entry hvp_f [n] (xs: [n]f64) (v: [n]f64) : [n]f64 =
  jvp (\p -> vjp f p 1) xs v

entry hvp_f_hand [n] (xs: [n]f64) (v: [n]f64) : bool =
  let hand = tabulate n (\j -> v[(j + 1) % n] + v[(j + n - 1) % n])
  let a = jvp (\p -> vjp f p 1) xs v
  let b = vjp (\p -> jvp f p v) xs 1
  in all_close a hand && all_close b hand

entry hvp_g [n] [m] (xs: [n]f64) (idx: [m]i64) (v: [n]f64) : [n]f64 =
  jvp (\p -> vjp (g idx) p 1) xs v

entry hvp_g_hand [n] [m] (xs: [n]f64) (idx: [m]i64) (v: [n]f64) : bool =
  let c = hist (+) 0 n idx (replicate m 1i64)
  let hand = map3 (\cj x vj -> 6 * f64.i64 cj * x * vj) c xs v
  let a = jvp (\p -> vjp (g idx) p 1) xs v
  let b = vjp (\p -> jvp (g idx) p v) xs 1
  in all_close a hand && all_close b hand

entry hvp_h_agrees [n] (xs: [n]f64) (idx: [n]i64) (v: [n]f64) : bool =
  let a = jvp (\p -> vjp (h idx) p 1) xs v
  let b = vjp (\p -> jvp (h idx) p v) xs 1
  let eps = 1e-6
  let grad p = vjp (h idx) p 1
  let fd = map2 (\gp gm -> (gp - gm) / (2 * eps))
                (grad (map2 (\x d -> x + eps * d) xs v))
                (grad (map2 (\x d -> x - eps * d) xs v))
  in all_close a b && and (map2 (\x y -> f64.abs (x - y) <= 1e-5 * (1 + f64.abs x)) a fd)

def k [n] (xs: [n]f64) : f64 =
  f64.sum (map (\i -> if i > 0 then xs[i] * xs[i - 1] else xs[0] * 2) (iota n))

def l [n] (xs: [n]f64) : f64 =
  f64.sum (map (\i -> loop a = 1 for j < 2 do a * xs[(i + j) % n]) (iota n))

entry hvp_cond_loop_hand [n] (xs: [n]f64) (v: [n]f64) : bool =
  let hand_k = tabulate n (\j -> (if j > 0 then v[j - 1] else 0) + (if j < n - 1 then v[j + 1] else 0))
  let hand_l = tabulate n (\j -> v[(j + 1) % n] + v[(j + n - 1) % n])
  in all_close (jvp (\p -> vjp k p 1) xs v) hand_k
     && all_close (vjp (\p -> jvp k p v) xs 1) hand_k
     && all_close (jvp (\p -> vjp l p 1) xs v) hand_l
     && all_close (vjp (\p -> jvp l p v) xs 1) hand_l

def lower_index (d: i64) (r: i64) (c: i64) : i64 =
  d + c * (d - 1) - c * (c - 1) / 2 + (r - c - 1)

def qform [t] [d] (y: [d]f64) (icf: [t]f64) : f64 =
  let qy = tabulate d (\r -> f64.exp icf[r] * y[r]
                             + f64.sum (map (\c -> if c < r then icf[lower_index d r c] * y[c] else 0)
                                            (iota d)))
  in f64.sum (map (\z -> z * z) qy)

entry hvp_qform_agrees [t] [d] (icf: [t]f64) (y: [d]f64) (v: [t]f64) : bool =
  let a = jvp (\p -> vjp (qform y) p 1) icf v
  let b = vjp (\p -> jvp (qform y) p v) icf 1
  let eps = 1e-6
  let grad p = vjp (qform y) p 1
  let fd = map2 (\gp gm -> (gp - gm) / (2 * eps))
                (grad (map2 (\x e -> x + eps * e) icf v))
                (grad (map2 (\x e -> x - eps * e) icf v))
  in all_close a b && and (map2 (\x z -> f64.abs (x - z) <= 1e-5 * (1 + f64.abs x)) a fd)
