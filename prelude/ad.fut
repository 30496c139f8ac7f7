-- | Automatic differentiation.
--
-- A *tangent* is a value of the same type as a function's input,
-- describing a direction of change; `jvp` (forward mode) pushes a
-- tangent through the function and returns the resulting change of the
-- output (the Jacobian times the tangent).  A *cotangent* (or
-- adjoint) has the type of the output; `vjp` (reverse mode) pulls it
-- back to the input (the transposed Jacobian times the cotangent).
-- Tuples, records and arrays are treated as flat collections of their
-- scalars; integer and boolean parts have zero (co)tangents.  Results
-- are only meaningful for functions that are differentiable at the
-- given point.  All of these may be nested to obtain higher-order
-- derivatives.

-- | Forward mode.  `jvp2 f x dx` returns `(f x, J·dx)`, where `J` is
-- the Jacobian of `f` at `x`.
def jvp2 'a 'b (f: a -> b) (x: a) (dx: a): (b, b) = __intrinsic "jvp2"

-- | Reverse mode.  `vjp2 f x dy` returns `(f x, Jᵀ·dy)`.
def vjp2 'a 'b (f: a -> b) (x: a) (dy: b): (b, a) = __intrinsic "vjp2"

-- | Forward mode with many tangents at once ("Jacobian-matrix
-- product").  `jmp2 f x dxs` returns `(f x, map (jvp f x) dxs)`, but
-- the primal computation is shared.
def jmp2 'a 'b [k] (f: a -> b) (x: a) (dxs: [k]a): (b, [k]b) = __intrinsic "jmp2"

-- | Reverse mode with many cotangents at once ("matrix-Jacobian
-- product").  `mjp2 f x dys` returns `(f x, map (vjp f x) dys)`, but
-- the forward sweep is shared.
def mjp2 'a 'b [k] (f: a -> b) (x: a) (dys: [k]b): (b, [k]a) = __intrinsic "mjp2"

-- | Forward mode: the Jacobian of `f` at `x` applied to the tangent `dx`.
def jvp 'a 'b (f: a -> b) (x: a) (dx: a): b = (jvp2 f x dx).1

-- | Reverse mode: the transposed Jacobian of `f` at `x` applied to the
-- cotangent `dy`.  With a scalar output and `dy = 1`, this is the
-- gradient.
def vjp 'a 'b (f: a -> b) (x: a) (dy: b): a = (vjp2 f x dy).1

-- | `jmp f x dxs` is `map (jvp f x) dxs`, computed in one pass.
def jmp 'a 'b [k] (f: a -> b) (x: a) (dxs: [k]a): [k]b = (jmp2 f x dxs).1

-- | `mjp f x dys` is `map (vjp f x) dys`, computed in one pass.
def mjp 'a 'b [k] (f: a -> b) (x: a) (dys: [k]b): [k]a = (mjp2 f x dys).1

-- | The same as `jmp`, under the name older programs use.
def jvp_vec 'a 'b [k] (f: a -> b) (x: a) (dxs: [k]a): [k]b = jmp f x dxs

-- | The same as `mjp`, under the name older programs use.
def vjp_vec 'a 'b [k] (f: a -> b) (x: a) (dys: [k]b): [k]a = mjp f x dys

-- | The same as `jmp2`, under the name older programs use.
def jvp2_vec 'a 'b [k] (f: a -> b) (x: a) (dxs: [k]a): (b, [k]b) = jmp2 f x dxs

-- | The same as `mjp2`, under the name older programs use.
def vjp2_vec 'a 'b [k] (f: a -> b) (x: a) (dys: [k]b): (b, [k]a) = mjp2 f x dys

-- | A function with a hand-written reverse-mode derivative.  Outside
-- of `vjp`, `with_vjp f f' x` is just `f x`.  When it is differentiated
-- in reverse mode, the cotangent of the input is `f' y dy`, where
-- `y = f x` is the primal result and `dy` its cotangent; `f` itself is
-- not differentiated.  Forward mode (`jvp`) differentiates `f` as
-- usual.  Free variables of `f` get no adjoint contribution, so pass
-- everything the derivative depends on through `x`.
def with_vjp 'a 'b (f: a -> b) (f': b -> b -> a) (x: a): b = __intrinsic "with_vjp"

-- | Like `with_vjp`, but `f` returns a pair `(tape, y)`, where `tape`
-- holds intermediate values for the derivative and `y` is the result.
-- `f' (tape, dy)` must return the cotangent of the input.
def with_vjp_tape 'a 'b 'c (f: a -> (c, b)) (f': (c, b) -> a) (x: a): b =
  (with_vjp f (\(tape, _) (_, dy) -> f' (tape, dy)) x).1
