-- Type abbreviations inside modules, referred to with qualified names.
-- ==
-- input { 1 2 } output { 3 }

module Geo = {
  type point = {x: i32, y: i32}
  def mk (x: i32) (y: i32) : point = {x, y}
}

def sum (p: Geo.point) = p.x + p.y

def main (a: i32) (b: i32) = sum (Geo.mk a b)
