-- `include` copies the specifications of another module type.
-- ==
-- input { 3 } output { 3 6 }

module type A = { val a : i32 -> i32 }
module type AB = {
  include A
  val b : i32 -> i32
}

module M : AB = {
  def a (x: i32) = x
  def b (x: i32) = 2 * x
}

def main (x: i32) : (i32, i32) = (M.a x, M.b x)
