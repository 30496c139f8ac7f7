-- An abstract type is not equal to its hidden definition.
-- ==
-- error: T002

module counter : {
  type t
  val zero : t
} = {
  type t = i32
  def zero = 0i32
}

def main : i32 = counter.zero + 1
