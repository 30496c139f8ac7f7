-- Library: a module with an abstract type.

module counter : {
  type t
  val zero : t
  val incr : t -> t
  val value : t -> i32
} = {
  type t = i32
  def zero : t = 0
  def incr (c: t) : t = c + 1
  def value (c: t) : i32 = c
}
