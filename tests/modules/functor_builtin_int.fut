-- A functor over the prelude's `integral` module type applied to i32 and u8.
-- ==
-- input { 17 5u8 } output { 2 5u8 }

module Digits (I: integral) = {
  def count_digits (x: I.t) : i32 =
    (loop (c, v) = (1, x) while v I.>= I.i32 10 do (c + 1, v I./ I.i32 10)).0
  def id (x: I.t) = x
}

module D32 = Digits i32
module D8 = Digits u8

def main (x: i32) (y: u8) : (i32, u8) = (D32.count_digits x, D8.id y)
