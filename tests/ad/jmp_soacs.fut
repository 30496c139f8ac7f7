-- jmp through SOACs: the map, scan, reduction, histogram or scatter runs
-- once and carries every seed's tangent beside each element (scan and
-- reduce operators on (value, [k] tangents) pairs, histograms and
-- scatters with [k] tangent rows per bucket or element), checked against
-- one jvp per seed on seeds that are not one-hot, and with no seeds.
-- `scan_add` at x = [1, 2, 3, 4] with seed [1, 2, 3, 4] has tangent
-- scan (+) 0 (2 * x * seed) = [2, 10, 28, 60].
-- ==
-- entry: scan_add_tangents
-- input { [1.0, 2.0, 3.0, 4.0] [[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 1.0]] }
-- output { [[2.0, 10.0, 28.0, 60.0], [0.0, 0.0, 0.0, 8.0]] }

-- ==
-- entry: scan_add scan_affine reduce_ops_agrees reduce_pairs_agrees hist_ops_agrees scatter_vals_agrees nested_maps_agrees map_free_agrees rows_reduce_agrees
-- input { [1.0, 2.0, 3.0, 4.0] [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]] } output { true }
-- input { [0.3, -1.2, 0.8, 2.0] [[0.5, -1.0, 2.0, 0.25], [1.0, 1.0, 1.0, 1.0], [-0.75, 0.0, 1.5, -2.0]] } output { true }
-- input { [0.0, 1.5, -0.5, 0.0] [[1.0, 2.0, 3.0, 4.0]] } output { true }
-- input { [1.5, 0.4, 2.5, -3.0] empty([0][4]f64) } output { true }

def close [k] [n] (a: [k][n]f64) (b: [k][n]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-10 * (1 + f64.abs x + f64.abs y)) r s)) a b)

-- One jvp per seed: the seed is read inside the map, so the map keeps one
-- jvp per seed.
def per_seed [k] [n] [m] (f: [n]f64 -> [m]f64) (x: [n]f64) (ds: [k][n]f64) : [k][m]f64 =
  map (\i -> jvp f x ds[i]) (iota k)

def agrees [k] [n] [m] (f: [n]f64 -> [m]f64) (x: [n]f64) (ds: [k][n]f64) : bool =
  close (jmp f x ds) (per_seed f x ds)

def sq_scan (x: [4]f64) : [4]f64 = scan (+) 0 (map (\v -> v * v) x)

-- A scan of affine maps v -> a v + b composed left to right (associative,
-- not commutative), on pairs of elements.
def affine (x: [4]f64) : [4]f64 =
  let (a, b) = unzip (scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0)
                           (map (\v -> (f64.cos v, f64.sin v)) x))
  in map2 (+) a b

-- Reductions by +, *, min, max, in one tuple.
def reduce_ops (x: [4]f64) : [4]f64 =
  let s = reduce (+) 0 (map f64.exp x)
  let p = reduce (*) 1 (map (\v -> v + 0.5) x)
  let lo = reduce f64.min f64.inf x
  let hi = reduce f64.max (-f64.inf) (map (\v -> v * v) x)
  in [s, p, lo, hi]

-- A reduction with a general operator on pairs (the product of 2x2 upper
-- triangular matrices [[a, b], [0, 1]]).
def reduce_pairs (x: [4]f64) : [4]f64 =
  let (a, b) = reduce (\(a1, b1) (a2, b2) -> (a1 * a2, a1 * b2 + b1)) (1, 0)
                      (map (\v -> (1 + 0.1 * v, v * v)) x)
  in [a, b, a * b, a - b]

-- Histograms with +, * and max, with buckets out of bounds.
def hist_ops (x: [4]f64) : [4]f64 =
  let is = [0, 2, 0, 5]
  let h1 = reduce_by_index (replicate 3 0) (+) 0 is (map (\v -> v * v) x)
  let h2 = reduce_by_index (replicate 3 1) (*) 1 [1, 1, 2, -1] x
  let h3 = reduce_by_index (copy x[0:3]) f64.max (-f64.inf) [2, 2, 0, 1] (map f64.sin x)
  in [h1[0] + h1[2], h2[1], h2[2] * h3[0], h3[1] + h3[2]]

-- A scatter into a destination that depends on the input, with an index
-- out of bounds.
def scatter_vals (x: [4]f64) : [4]f64 =
  let dest = map (\v -> v * 2) x
  in scatter dest [3, 0, 7] (map (\v -> v * v * v) x[1:4])

-- Maps nested in maps: an outer product's row sums and a nested reduce.
def nested_maps (x: [4]f64) : [4]f64 =
  map (\a -> f64.sum (map (\b -> f64.sin (a * b)) x) + reduce (*) 1 (map (\b -> b + a) x)) x

-- A map reading an array and a scalar it does not map over.
def map_free (x: [4]f64) : [4]f64 =
  let c = x[0] * x[1]
  in map (\i -> x[(i + 1) % 4] * c + x[i]) (iota 4)

-- A map over the rows of a matrix built from x, each reduced.
def rows_reduce (x: [4]f64) : [4]f64 =
  let m = map (\a -> map (\b -> a * b + b) x) x
  in map (\r -> reduce (+) 0 (map f64.exp r)) m

entry scan_add_tangents (x: [4]f64) (ds: [][4]f64) : [][4]f64 = jmp sq_scan x ds
entry scan_add (x: [4]f64) (ds: [][4]f64) : bool = agrees sq_scan x ds
entry scan_affine (x: [4]f64) (ds: [][4]f64) : bool = agrees affine x ds
entry reduce_ops_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees reduce_ops x ds
entry reduce_pairs_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees reduce_pairs x ds
entry hist_ops_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees hist_ops x ds
entry scatter_vals_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees scatter_vals x ds
entry nested_maps_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees nested_maps x ds
entry map_free_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees map_free x ds
entry rows_reduce_agrees (x: [4]f64) (ds: [][4]f64) : bool = agrees rows_reduce x ds
