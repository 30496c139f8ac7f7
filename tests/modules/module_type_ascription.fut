-- A module ascribed with a module type exposes only what the type specifies.
-- ==
-- input { 4 } output { 16 }

module type sq = { val sq : i32 -> i32 }

module S : sq = {
  def helper (x: i32) = x
  def sq (x: i32) = helper x * x
}

def main (x: i32) = S.sq x
