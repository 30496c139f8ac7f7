-- Refinement in a functor's parameter type lets the body know the concrete type.
-- ==
-- input { 6 } output { 12 }

module type box = { type t val get : t -> t }

module Doubler (B: box with t = i32) = {
  def run (x: i32) = B.get x * 2
}

module D = Doubler { type t = i32 def get (x: i32) = x }

def main (x: i32) = D.run x
