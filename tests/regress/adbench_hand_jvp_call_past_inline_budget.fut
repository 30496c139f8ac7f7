-- `jvp` of a function whose inlined body would exceed the inliner's size budget
-- (each level calls the one below three times, so the fifth level is over 2000
-- statements): the inliner leaves calls inside the jvp body, and the ad pass has no
-- rule for a call, so `fut test --backend=ir` fails with "jvp is not expanded".
-- bench-suite/adbench/hand.fut hit this when its Jacobian held three jvps over the
-- whole model. The interpreter computes the derivative (central differences agree
-- to 1e-12). Tagged no_ir until the ad pass differentiates calls (or the inliner
-- always inlines into jvp/vjp bodies); remove the tag with the fix.
-- ==
-- tags { no_ir }
-- input { 0.5 } output { 0.007172602311448522 }

def f0 (x: f64) : f64 =
  let a = f64.sin x
  let b = f64.cos (x * 0.5)
  let c = a * b + 0.25 * f64.sin (x * 0.3)
  in 0.5 * c + 0.125 * a

def f1 (x: f64) : f64 = f0 (f0 x) + 0.5 * f0 (x * 0.25)
def f2 (x: f64) : f64 = f1 (f1 x) + 0.5 * f1 (x * 0.25)
def f3 (x: f64) : f64 = f2 (f2 x) + 0.5 * f2 (x * 0.25)
def f4 (x: f64) : f64 = f3 (f3 x) + 0.5 * f3 (x * 0.25)
def f5 (x: f64) : f64 = f4 (f4 x) + 0.5 * f4 (x * 0.25)

def main (x: f64) : f64 = jvp f5 x 1
