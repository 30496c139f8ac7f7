-- A generic function over the numeric module type, applied to an
-- integer and a float module.
-- ==
-- entry: mean_i64
-- input { [1i64, 2i64, 6i64] } output { 3i64 6i64 1i64 }
-- input { empty([0]i64) } output { 0i64 -9223372036854775808i64 9223372036854775807i64 }

-- ==
-- entry: mean_f32
-- input { [1.0f32, 2.0f32] } output { 1.5f32 2.0f32 1.0f32 }

module stats (N: numeric) = {
  def mean [n] (xs: [n]N.t): N.t = if n == 0 then N.i32 0 else N.sum xs N./ N.i64 n
  def spread [n] (xs: [n]N.t): (N.t, N.t) = (N.maximum xs, N.minimum xs)
}

module si = stats i64
module sf = stats f32

entry mean_i64 (xs: []i64): (i64, i64, i64) = let (a, b) = si.spread xs in (si.mean xs, a, b)

entry mean_f32 (xs: []f32): (f32, f32, f32) = let (a, b) = sf.spread xs in (sf.mean xs, a, b)
