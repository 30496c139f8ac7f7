-- Found by `fut dev --fuzz` (seed 1962; the IR backend disagreed with the
-- interpreter): in `vjp` of `loop acc = x for i < n do x + acc`, `x` is both
-- the loop parameter's initial value and a free variable of the body. The
-- return sweep added the initial value's adjoint to `x` and then replaced
-- `x`'s adjoint with the free variable's (the loop result, which started from
-- the adjoint before that addition), so one of the two was lost: the
-- derivative was 1 instead of 2 (with one iteration) and half the right one
-- for `0.5 * f64.sin (x + acc)`.
-- ==
-- input { -4.75f64 }
-- output { 2.0f64 67.6875f64 -0.9971721561963784f64 4.5f64 }
-- input { 1.5f64 }
-- output { 2.0f64 6.75f64 -0.9899924966004454f64 4.5f64 }

def one (x: f64) : f64 =
  loop acc = x for _i < 1 do x + acc

def cube (x: f64) : f64 =
  loop acc = x for _i < 2 do x * acc

def sine (x: f64) : f64 =
  loop acc = x for _i < 1 do 0.5 * f64.sin (x + acc)

def arr (x: f64) : [2]f64 =
  loop acc = [x, x] for _i < 2 do map (+ x) acc

entry main (x: f64) : (f64, f64, f64, f64) =
  (vjp one x 1, vjp cube x 1, vjp sine x 1, vjp arr x [1.0, 0.5])
