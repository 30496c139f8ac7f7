-- A functor with one parameter.
-- ==
-- input { 1 } output { 4 11 }

module type has_k = { val k : i32 }

module Adder (P: has_k) = {
  def add (x: i32) = x + P.k
}

module Add3 = Adder { def k = 3i32 }
module Add10 = Adder { def k = 10i32 }

def main (x: i32) : (i32, i32) = (Add3.add x, Add10.add x)
