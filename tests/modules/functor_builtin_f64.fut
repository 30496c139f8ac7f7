-- A functor over the prelude's `real` module type applied to the builtin f64 and f32 modules.
-- ==
-- input { [1.0, 2.0, 3.0, 4.0] [1.0f32, 2.0f32, 3.0f32, 4.0f32] } output { 2.5 2.5f32 1.118033988749895 }

module Stats (R: real) = {
  def mean [n] (xs: [n]R.t) : R.t = R.sum xs R./ R.i64 n
  def stddev [n] (xs: [n]R.t) : R.t =
    let m = mean xs
    in R.sqrt (mean (map (\x -> (x R.- m) R.* (x R.- m)) xs))
}

module S64 = Stats f64
module S32 = Stats f32

def main (xs: []f64) (ys: []f32) : (f64, f32, f64) = (S64.mean xs, S32.mean ys, S64.stddev xs)
