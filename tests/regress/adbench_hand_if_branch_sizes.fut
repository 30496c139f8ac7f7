-- An `if` whose branches have different sizes (`xs` and `xs ++ xs`) must have a
-- fresh (existential) size. The checker gives it the `then` branch's size: it
-- accepts `let ys: [n]f64 = if c then xs else xs ++ xs`, and the size it infers for
-- `q` in the call of `scale` is n, so the interpreter fails on the second case with
-- "Size mismatch: expected size 2 for `q`, but the value has size 4". The IR
-- backend, which takes sizes from the arrays, computes 18. (The checker unifies
-- the branches with sizes ignored and keeps the `then` branch's type; where the
-- branches' sizes differ, the result needs a fresh size.) Found in
-- bench-suite/adbench/hand.fut (the posed vertices: one or three per point). Tagged
-- no_interp until the checker is fixed; remove the tag with the fix.
-- ==
-- tags { no_interp }
-- input { [1.0, 2.0] true 3.0 } output { 9.0 }
-- input { [1.0, 2.0] false 3.0 } output { 18.0 }

def scale [q] (w: f64) (xs: [q]f64) : [q]f64 = map (* w) xs

def main [n] (xs: [n]f64) (c: bool) (w: f64) : f64 =
  let ys = if c then xs else xs ++ xs
  in f64.sum (scale w ys)
