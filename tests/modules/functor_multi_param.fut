-- A functor with several parameters.
-- ==
-- input { 2 } output { 7 }

module type fn = { val f : i32 -> i32 }

module Compose (F: fn) (G: fn) = {
  def f (x: i32) = F.f (G.f x)
}

module Inc = { def f (x: i32) = x + 1 }
module Triple = { def f (x: i32) = x * 3 }
module IncAfterTriple = Compose Inc Triple

def main (x: i32) = IncAfterTriple.f x
