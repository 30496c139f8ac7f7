-- `with t = ...` refines an abstract type in a module type.
-- ==
-- input { 4 } output { 5 }

module type inc = { type t val inc : t -> t }

module I : inc with t = i32 = {
  type t = i32
  def inc (x: t) = x + 1
}

def main (x: i32) : i32 = I.inc x
