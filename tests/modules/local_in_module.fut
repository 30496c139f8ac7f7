-- `local` inside a module hides a helper from users of the module.
-- ==
-- input { 5 } output { 26 }

module M = {
  local def sq (x: i32) = x * x
  def sq1 (x: i32) = sq x + 1
}

def main (x: i32) = M.sq1 x
