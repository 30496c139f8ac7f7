-- The numeric module types can be used as functor parameters, and the
-- prelude's modules match them.
-- ==
-- entry: norms
-- input { 3.0 4.0 } output { 5.0 5.0f32 }

-- ==
-- entry: ints
-- input { [1, 2, 3] } output { 6 6u8 4 2 }

-- ==
-- entry: floats
-- input { 1.0 } output { 2.220446049250313e-16 1.1920928955078125e-7f32 }

-- ==
-- entry: prims
-- input { 0 2 } output { false true 2.0 2i64 }

module norm (R: real) = {
  def norm2 (x: R.t) (y: R.t): R.t = R.sqrt (x R.* x R.+ y R.* y)
  def from (x: f64): R.t = R.f64 x
}

module n64 = norm f64
module n32 = norm f32

entry norms (x: f64) (y: f64): (f64, f32) =
  (n64.norm2 (n64.from x) (n64.from y), n32.norm2 (n32.from x) (n32.from y))

module ints (I: integral) = {
  def total [n] (xs: [n]I.t): I.t = I.sum xs
  def ones (x: I.t): i32 = I.popc x
}

module ii32 = ints i32
module iu8 = ints u8

entry ints (xs: []i32): (i32, u8, i32, i32) =
  (ii32.total xs, iu8.total (map u8.i32 xs), ii32.ones 15, iu8.ones 5u8)

module ulp (F: float) = {
  def at (x: F.t): F.t = F.nextafter x F.inf F.- x
}

module u64f = ulp f64
module u32f = ulp f32

entry floats (x: f64): (f64, f32) = (u64f.at x, u32f.at (f32.f64 x))

module conv (P: from_prim) = {
  def make (x: i32): P.t = P.i32 x
}

module cb = conv bool
module cf = conv f64
module ci = conv i64

entry prims (a: i32) (b: i32): (bool, bool, f64, i64) = (cb.make a, cb.make b, cf.make b, ci.make b)
