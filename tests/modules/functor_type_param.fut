-- A functor whose parameter has an abstract type, instantiated with a monoid.
-- ==
-- input { [1, 2, 3, 4] } output { 10 24 }

import "lib/sigs"

module Fold (M: monoid) = {
  def fold (xs: []M.t) : M.t = reduce M.op M.ne xs
}

module Sum = Fold { type t = i32 def ne = 0i32 def op (a: i32) (b: i32) = a + b }
module Prod = Fold { type t = i32 def ne = 1i32 def op (a: i32) (b: i32) = a * b }

def main (xs: []i32) : (i32, i32) = (Sum.fold xs, Prod.fold xs)
