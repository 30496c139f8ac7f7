-- Automatic differentiation works on integer types too: the derivative of
-- x*x at x is 2*x, also for i32.
-- ==
-- entry: fwd rev
-- input { 7 } output { 14 }

def sq (x: i32) = x * x

entry fwd (x: i32) : i32 = jvp sq x 1
entry rev (x: i32) : i32 = vjp sq x 1
