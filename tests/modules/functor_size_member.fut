-- A functor's parameter member used as a size (`S.n`) sizes the arrays of the
-- functor's body, also one whose size only the context gives (`rep`).
-- ==
-- input { 2f32 } output { [2f32, 2f32, 2f32] 3i64 }

module type sized = {
  val n : i64
}

module vec (S: sized) = {
  type t = [S.n]f32

  def zero : t = rep 0f32

  def len (_: t) : i64 = S.n
}

module three = {
  def n : i64 = 3
}

module V = vec three

def main (x: f32) = (map (+ x) V.zero, V.len V.zero)
