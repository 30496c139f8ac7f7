-- `jvp` and `vjp` of a function whose fully inlined body is over 2000 statements (each level
-- calls the one below three times). The AD pass has no rule for a function call,
-- so the calls inside a jvp or vjp body must all be inlined, whatever size budget the
-- inliner keeps elsewhere: with a budget and no such exception, the calls stay and
-- `fut test --backend=ir` fails with "jvp is not expanded" ("vjp ..."). Seen
-- while writing bench-suite/adbench/hand.fut (three jvps over the model) and
-- ba.fut (vjps of a function both entry points call). The expected value agrees
-- with central differences to 1e-12.
-- ==
-- entry: fwd rev
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

entry fwd (x: f64) : f64 = jvp f5 x 1

entry rev (x: f64) : f64 = vjp f5 x 1
