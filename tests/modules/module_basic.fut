-- A module groups definitions, accessed with qualified names.
-- ==
-- input { 5 } output { 15 10 }

module M = {
  def k = 10i32
  def add (x: i32) = x + k
}

def main (x: i32) : (i32, i32) = (M.add x, M.k)
