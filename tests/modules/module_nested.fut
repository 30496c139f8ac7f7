-- Modules nested in modules.
-- ==
-- input { 2 } output { 8 3 }

module Outer = {
  module Inner = {
    def cube (x: i32) = x * x * x
  }
  def succ (x: i32) = x + 1
}

def main (x: i32) : (i32, i32) = (Outer.Inner.cube x, Outer.succ x)
