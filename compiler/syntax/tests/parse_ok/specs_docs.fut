-- | A module type.
module type mt = {
  -- | The type.
  type t
  -- | A value.
  val x : t
}
-- | A module.
module m = {
  -- | Inner.
  def a = 1
}
