-- Entry points that take and return tuples and records: opaque values of
-- the executables' server (compiler/cli/tests/opaque.rs drives them with
-- `new`, `project`, `store` and `restore`). The interpreter cannot read
-- opaque arguments, so only the transparent entry has a test block; every
-- entry is still compiled by each backend that runs the block.

type stats = {n: i64, sum: f64, range: (f64, f64)}

def stats_of (xs: []f64) : stats =
  { n = length xs
  , sum = f64.sum xs
  , range = (f64.minimum xs, f64.maximum xs) }

-- ==
-- entry: mean_and_range
-- input { [1.0, 4.0, -2.0, 5.0] } output { 2.0 -2.0 5.0 }
entry mean_and_range (xs: []f64) : (f64, f64, f64) =
  let s = stats_of xs
  in (s.sum / f64.i64 s.n, s.range.0, s.range.1)

entry point (x: f64) (y: f64) : {x: f64, y: f64} = {x, y}

entry norm2 (p: {x: f64, y: f64}) : f64 = p.x * p.x + p.y * p.y

entry summarise (xs: []f64) : {n: i64, sum: f64, range: (f64, f64)} = stats_of xs

entry widen (s: {n: i64, sum: f64, range: (f64, f64)}) (d: f64)
    : (f64, {n: i64, sum: f64, range: (f64, f64)}) =
  (s.sum / f64.i64 s.n, s with range = (s.range.0 - d, s.range.1 + d))

entry split (xs: []i32) : ([]i32, (i32, []i32)) =
  (map (* 2) xs, (i32.sum xs, reverse xs))

entry set_at (xs: *[]f64) (at: {i: i64, v: f64}) : []f64 = xs with [at.i] = at.v

entry set_first (r: *{xs: []f64, v: f64}) : []f64 = r.xs with [0] = r.v
