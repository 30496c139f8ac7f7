-- An `if` whose branches have different sizes (`xs` and `xs ++ xs`) must have a
-- fresh (existential) size. The checker used to give it the `then` branch's size:
-- it accepted `let ys: [n]f64 = if c then xs else xs ++ xs`, and the size it
-- inferred for `q` in the call of `scale` was n, so the interpreter failed on the
-- second case with "Size mismatch: expected size 2 for `q`, but the value has size
-- 4". Found in bench-suite/adbench/hand.fut (the posed vertices: one or three per
-- point).
-- ==
-- input { [1.0, 2.0] true 3.0 } output { 9.0 }
-- input { [1.0, 2.0] false 3.0 } output { 18.0 }

def scale [q] (w: f64) (xs: [q]f64) : [q]f64 = map (* w) xs

def main [n] (xs: [n]f64) (c: bool) (w: f64) : f64 =
  let ys = if c then xs else xs ++ xs
  in f64.sum (scale w ys)
