-- A size binder of a `let` and a name of its pattern are one namespace.
-- ==
-- error: T010

def main (xs: []i32) =
  let [n] (ys: [n]i32, n: i64) = (xs, 1)
  in (ys, n)
