-- A module type may state that an array value's size is another value of the
-- module (`val v : [k]i64`). An implementation whose array has a different size
-- must be rejected ("Dimensions ... do not match" in Futhark); today it is
-- accepted. The correct implementation `good` must still be accepted.
-- ==
-- error: T008|S001|Dimensions

module type sized = {
  val k : i64
  val v : [k]i64
}

module good : sized = {
  def k = 3i64
  def v = iota k
}

module bad : sized = {
  def k = 3i64
  def v : []i64 = iota (k + 2)
}

def main = good.v[0] + bad.v[0]
