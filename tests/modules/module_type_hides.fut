-- A definition hidden by a module type is not accessible.
-- ==
-- error: T001

module type sq = { val sq : i32 -> i32 }

module S : sq = {
  def helper (x: i32) = x
  def sq (x: i32) = helper x * x
}

def main (x: i32) = S.helper x
