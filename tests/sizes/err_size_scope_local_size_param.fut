-- A size parameter of a local function is not in scope outside it: the size
-- of `ys`, bound outside, may not become it.
-- ==
-- error: S002

def main (ys: []i32) =
  let f [n] (xs: [n]i32) = zip xs ys
  in f
