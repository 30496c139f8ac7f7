-- Lloyd iterations of k-means clustering on generated points.
def dist [d] (a: [d]f32) (b: [d]f32): f32 =
  f32.sum (map2 (\x y -> (x - y) * (x - y)) a b)

def closest [k][d] (cs: [k][d]f32) (p: [d]f32): i64 =
  let (_, best) =
    foldl (\(bd, bi) (c, i) -> let dd = dist c p in if dd < bd then (dd, i) else (bd, bi))
          (f32.inf, 0) (zip cs (iota k))
  in best

entry main (n: i64) (k: i64) (iters: i32): f32 =
  let d = 3i64
  let ps = tabulate_2d n d (\i j -> f32.i64 ((i * 7 + j * 13) % 101) / 10f32)
  let cs0 = take k ps
  let cs = loop cs = cs0 for _i < iters do
    let ms = map (closest cs) ps
    let sums = reduce_by_index (replicate k (replicate d 0f32)) (map2 (+)) (replicate d 0f32) ms ps
    let counts = reduce_by_index (replicate k 0f32) (+) 0f32 ms (replicate n 1f32)
    in map2 (\s c -> map (\x -> x / f32.max c 1f32) s) sums counts
  in f32.sum (flatten cs)
