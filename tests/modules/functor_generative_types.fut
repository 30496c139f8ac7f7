-- A functor producing a sealed module with an abstract type; the result is
-- used through its operations only.
-- ==
-- input { 3 } output { 6 }

module type stack = {
  type t
  val empty : t
  val push : i32 -> t -> t
  val total : t -> i32
}

module MkStack (P: { val scale : i32 }) : stack = {
  type t = i32
  def empty = 0i32
  def push (x: i32) (s: t) = s + x * P.scale
  def total (s: t) = s
}

module S = MkStack { def scale = 2i32 }

def main (x: i32) = S.total (S.push x S.empty)
