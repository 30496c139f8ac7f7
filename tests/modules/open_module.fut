-- `open M` brings M's names into scope.
-- ==
-- input { 3 } output { 9 4 }

module M = {
  def sq (x: i32) = x * x
  def inc (x: i32) = x + 1
}

open M

def main (x: i32) : (i32, i32) = (sq x, inc x)
