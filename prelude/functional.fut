-- | Small combinators for working with functions.

-- | Pipe forward: `x |> f` is `f x`.
def (|>) '^a '^b (x: a) (f: a -> b): b = f x

-- | Pipe backward: `f <| x` is `f x`.
def (<|) '^a '^b (f: a -> b) (x: a): b = f x

-- | Forward composition: `(f >-> g) x` is `g (f x)`.
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a): c = g (f x)

-- | Backward composition: `(g <-< f) x` is `g (f x)`.
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a): c = g (f x)

-- | Swap the first two arguments of a function.
def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a): c = f a b

-- | Turn a function on pairs into a function of two arguments.
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b): c = f (a, b)

-- | Turn a function of two arguments into a function on pairs.
def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)): c = f p.0 p.1

-- | A function that ignores its argument and returns `x`.
def const '^a '^b (x: a) (_: b): a = x

-- | The identity function.
def id '^a (x: a): a = x

-- | Apply `f` to `x` exactly `n` times (zero times if `n <= 0`).
def iterate 'a (n: i32) (f: a -> a) (x: a): a =
  loop y = x for i < n do f y

-- | Apply `f` to `x` until `p` holds of the result.  If `p x` already
-- holds, `x` is returned unchanged.
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a): a =
  loop y = x while !(p y) do f y

-- | Apply `f` to `x` as long as `p` holds.  If `p x` does not hold, `x`
-- is returned unchanged.
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a): a =
  loop y = x while p y do f y

-- | The identity function, as a barrier that the optimiser does not see
-- through: the compiler makes no assumption about its result.
def opaque '^a (x: a): a = x

-- | The identity function. Debugging builds may print the value.
def trace '^a (x: a): a = x

-- | The identity function. Debugging builds may stop here.
def break '^a (x: a): a = x
