-- Histograms with operators other than + in harder places: a destination
-- that earlier statements read (so the forward sweep differentiates a
-- copy), two histograms in a chain, a min histogram inside a map that is
-- differentiated in reverse mode, and Hessian-vector products (jvp of vjp)
-- through min, general and * histograms, which differentiate the sort,
-- the segmented scans and the winner search in forward mode.
-- ==
-- entry: chained
-- input { [0i64, 2i64, 0i64, 1i64, 2i64, 5i64] [2.0, 3.0, 0.5, 7.0, 0.3, 9.0] [1.0, 0.5, -1.0] }
-- output { [0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 8.0, 8.0, 3.0] }

-- ==
-- entry: two_hists
-- input { [0i64, 2i64, 0i64, 1i64, 2i64, 5i64] [2.0, 3.0, 0.5, 7.0, 0.3, 9.0] [1.0, 0.5, -1.0] }
-- output { [15.25, -4.33, 43.0, 31.0, -26.2, 0.0, 18.0, 128.0, 19.76] }

-- ==
-- entry: in_map
-- input { [0i64, 2i64, 0i64, 1i64, 2i64, 5i64] [2.0, 3.0, 0.5, 7.0, 0.3, 9.0] [1.0, 0.5, -1.0] }
-- output { [0.0, 0.0, 3.0, 0.0, 2.0, 0.0, 0.0, 3.0, 1.0] }

-- ==
-- entry: hvp_min
-- input { [0i64, 2i64, 0i64, 1i64, 2i64, 0i64] [2.0, 3.0, 0.5, 7.0, 0.3, 9.0] [1.0, 0.5, -1.0, 2.0, 1.0, 0.25] }
-- output { [0.0, 0.0, -1.875, 144060.0, 0.243, 0.0] }

-- ==
-- entry: hvp_general
-- input { [0i64, 2i64, 0i64, 1i64, 2i64, 0i64] [2.0, 3.0, 0.5, 7.0, 0.3, 9.0] [1.0, 0.5, -1.0, 2.0, 1.0, 0.25] }
-- output { [-1.243688797657991, -1.0371878669658474, 0.39523022434890154, -1.3139731974375781, -0.8101119985887228, 1.7965798762229628] }

-- ==
-- entry: hvp_mul
-- input { [0i64, 2i64, 0i64, 1i64, 2i64, 0i64] [2.0, 3.0, 0.5, 7.0, 0.3, 9.0] [1.0, 0.5, -1.0, 2.0, 1.0, 0.25] }
-- output { [-279.0, 3.69, -306.0, 4.0, 19.8, -53.5] }

def f_chained (is: []i64) (x: []f64, d0: []f64) =
  let d = map (* 2) d0
  let s = d[0] * d[1]
  let h = reduce_by_index d f64.max (-f64.inf) is x
  in h[0] * s + h[1] + h[2] * d0[2]

def f_two (is: []i64) (x: []f64, d0: []f64) =
  let d = map (* 2) d0
  let h = reduce_by_index d (\(a: f64) b -> a + b + a * b) 0 is x
  let h2 = reduce_by_index (copy h) (*) 1 is x
  in f64.sum h2 + f64.sum h

entry chained (is: []i64) (x: []f64) (d: []f64) = let (a, b) = vjp (f_chained is) (x, d) 1 in a ++ b
entry two_hists (is: []i64) (x: []f64) (d: []f64) = let (a, b) = vjp (f_two is) (x, d) 1 in a ++ b

entry in_map (is: []i64) (x: []f64) (d: []f64) =
  let f (x, d) =
    map (\k -> f64.sum (reduce_by_index (map (+ k) d) f64.min f64.inf is x)) [1.0, 2.0]
  let (a, b) = vjp f (x, d) [1, 2]
  in a ++ b

def g_min (is: []i64) (x: []f64) =
  f64.sum (map (\v -> v * v) (hist f64.min f64.inf 3 is (map (\y -> y * y * y) x)))
def g_general (is: []i64) (x: []f64) =
  f64.sum (hist (\a b -> a + b + a * b) 0 3 is (map f64.sin x))
def g_mul (is: []i64) (x: []f64) =
  f64.sum (map (\v -> v * v) (hist (*) 1 3 is x))

entry hvp_min (is: []i64) (x: []f64) (u: []f64) = jvp (\y -> vjp (g_min is) y 1) x u
entry hvp_general (is: []i64) (x: []f64) (u: []f64) = jvp (\y -> vjp (g_general is) y 1) x u
entry hvp_mul (is: []i64) (x: []f64) (u: []f64) = jvp (\y -> vjp (g_mul is) y 1) x u
