-- Local functions bound with `let` and no explicit type parameters are not
-- generalised: all uses of `twice` must agree on one type. Here the first use
-- fixes `x: i32, f: i32 -> i32` and the second passes a bool, so Futhark rejects
-- the program (its test for this says "Cannot apply"). Today it is accepted.
-- ==
-- error: T002|Cannot apply

def main (x: i32) (b: bool) =
  let twice f y = f (f y)
  in (twice (\v -> v + 1) x, twice (\c -> !c) b)
