-- Lloyd's k-means: nearest-centre assignment, cluster sizes with `hist` and
-- per-coordinate sums with `reduce_by_index`; the first k points are the
-- initial centres and an empty cluster keeps its centre.
-- ==
-- entry: centres
-- input { 2i64 5 [[0.0, 0.0], [10.0, 10.0], [1.0, 0.0], [0.0, 1.0], [9.0, 10.0], [10.0, 9.0], [0.5, 0.5], [9.5, 9.5]] }
-- output { [[0.375, 0.375], [9.625, 9.625]] }
-- input { 3i64 10 [[1.0, 2.0, 0.0], [1.5, 1.8, 0.2], [5.0, 8.0, 1.0], [8.0, 8.0, 2.0], [1.0, 0.6, 0.1], [9.0, 11.0, 1.5], [8.0, 2.0, 3.0], [10.0, 2.0, 2.5], [9.0, 3.0, 2.0]] }
-- output { [[1.25, 1.9, 0.1], [1.0, 0.6, 0.1], [8.166666666666666, 5.666666666666667, 2.0]] }
-- input { 3i64 4 [[0.0], [1.0], [2.0], [10.0], [11.0], [20.0], [21.0], [22.0], [50.0]] }
-- output { [[1.0], [10.5], [28.25]] }
-- input { 4i64 6 [[0.0], [1.0], [2.0], [10.0], [11.0], [20.0], [21.0], [22.0], [50.0]] }
-- output { [[0.0], [1.5], [10.5], [28.25]] }

-- ==
-- entry: cluster_sizes
-- input { 2i64 5 [[0.0, 0.0], [10.0, 10.0], [1.0, 0.0], [0.0, 1.0], [9.0, 10.0], [10.0, 9.0], [0.5, 0.5], [9.5, 9.5]] }
-- output { [4i64, 4i64] }
-- input { 3i64 10 [[1.0, 2.0, 0.0], [1.5, 1.8, 0.2], [5.0, 8.0, 1.0], [8.0, 8.0, 2.0], [1.0, 0.6, 0.1], [9.0, 11.0, 1.5], [8.0, 2.0, 3.0], [10.0, 2.0, 2.5], [9.0, 3.0, 2.0]] }
-- output { [2i64, 1i64, 6i64] }
-- input { 3i64 4 [[0.0], [1.0], [2.0], [10.0], [11.0], [20.0], [21.0], [22.0], [50.0]] }
-- output { [3i64, 2i64, 4i64] }
-- input { 4i64 6 [[0.0], [1.0], [2.0], [10.0], [11.0], [20.0], [21.0], [22.0], [50.0]] }
-- output { [1i64, 2i64, 2i64, 4i64] }

-- ==
-- entry: inertia
-- input { 2i64 5 [[0.0, 0.0], [10.0, 10.0], [1.0, 0.0], [0.0, 1.0], [9.0, 10.0], [10.0, 9.0], [0.5, 0.5], [9.5, 9.5]] }
-- output { 2.75 }
-- input { 3i64 10 [[1.0, 2.0, 0.0], [1.5, 1.8, 0.2], [5.0, 8.0, 1.0], [8.0, 8.0, 2.0], [1.0, 0.6, 0.1], [9.0, 11.0, 1.5], [8.0, 2.0, 3.0], [10.0, 2.0, 2.5], [9.0, 3.0, 2.0]] }
-- output { 90.83166666666666 }
-- input { 3i64 4 [[0.0], [1.0], [2.0], [10.0], [11.0], [20.0], [21.0], [22.0], [50.0]] }
-- output { 635.25 }
-- input { 4i64 6 [[0.0], [1.0], [2.0], [10.0], [11.0], [20.0], [21.0], [22.0], [50.0]] }
-- output { 633.75 }

def sq_dist [d] (a: [d]f64) (b: [d]f64) : f64 =
  f64.sum (map2 (\x y -> (x - y) * (x - y)) a b)

-- Index of the nearest centre; ties go to the lowest index.
def nearest [k] [d] (cs: [k][d]f64) (p: [d]f64) : i64 =
  let ds = map (sq_dist p) cs
  let (i, _) =
    reduce (\(i, a) (j, b) -> if b < a || (b == a && j < i) then (j, b) else (i, a))
           (-1, f64.inf) (zip (iota k) ds)
  in i

def update [k] [n] [d] (cs: [k][d]f64) (ps: [n][d]f64) : [k][d]f64 =
  let membership = map (nearest cs) ps
  let counts = hist (+) 0 k membership (replicate n 1i64)
  -- Sum the members of each cluster one coordinate at a time.
  let sums =
    transpose (map (\col -> reduce_by_index (replicate k 0f64) (+) 0 membership col) (transpose ps))
  in map3 (\c s cnt -> if cnt == 0 then c else map (/ f64.i64 cnt) s) cs sums counts

def kmeans [n] [d] (k: i64) (iters: i32) (ps: [n][d]f64) : [k][d]f64 =
  let init = take k ps
  in loop cs = init for _i < iters do update cs ps

entry centres [n] [d] (k: i64) (iters: i32) (ps: [n][d]f64) : [k][d]f64 =
  kmeans k iters ps

entry cluster_sizes [n] [d] (k: i64) (iters: i32) (ps: [n][d]f64) : [k]i64 =
  let cs = kmeans k iters ps
  in hist (+) 0 k (map (nearest cs) ps) (replicate n 1)

entry inertia [n] [d] (k: i64) (iters: i32) (ps: [n][d]f64) : f64 =
  let cs = kmeans k iters ps
  in f64.sum (map (\p -> f64.minimum (map (sq_dist p) cs)) ps)
