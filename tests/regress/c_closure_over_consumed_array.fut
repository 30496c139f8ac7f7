-- A local function that reads a free array may not be called after that
-- array has been consumed: the call observes the consumed array (U001).
-- ==
-- error: U001|consumed

def main (xs: *[]i32) : i32 =
  let peek (k: i32) = k + xs[0]
  let xs[1] = 2
  in peek 1
