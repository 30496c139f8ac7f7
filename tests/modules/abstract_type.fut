-- An abstract type from a sealed module, used only through its operations.
-- ==
-- input { 3 } output { 3 }
-- input { 0 } output { 0 }

module counter : {
  type t
  val zero : t
  val incr : t -> t
  val value : t -> i32
} = {
  type t = i32
  def zero = 0i32
  def incr (c: t) = c + 1
  def value (c: t) = c
}

def main (n: i32) = counter.value (loop c = counter.zero for _i < n do counter.incr c)
