-- | Functions for building, taking apart and reshaping arrays.

import "soacs"

local def iota_ (n: i64): *[n]i64 = __intrinsic "iota"
local def unflatten_ 't [p] (n: i64) (m: i64) (xs: [p]t): [n][m]t = __intrinsic "unflatten"

-- | The number of elements in the outer dimension.
def length [n] 't (_: [n]t): i64 = n

-- | True if the array has no elements.
def null [n] 't (_: [n]t): bool = n == 0

-- | The first element.  Fails with an index error on an empty array.
def head [n] 't (xs: [n]t): t = xs[0]

-- | The last element.  Fails with an index error on an empty array.
def last [n] 't (xs: [n]t): t = xs[n - 1]

-- | All elements but the first.  Fails on an empty array.
def tail [n] 't (xs: [n]t): [n - 1]t = xs[1:] :> [n - 1]t

-- | All elements but the last.  Fails on an empty array.
def init [n] 't (xs: [n]t): [n - 1]t = xs[:n - 1] :> [n - 1]t

-- | The first `i` elements.  Fails unless `0 <= i <= n`.
def take [n] 't (i: i64) (xs: [n]t): [i]t = xs[:i] :> [i]t

-- | All but the first `i` elements.  Fails unless `0 <= i <= n`.
def drop [n] 't (i: i64) (xs: [n]t): [n - i]t = xs[i:] :> [n - i]t

-- | View an array as having size `n`.  Fails at run time with a size
-- error if the actual size is different.
def sized [m] 't (n: i64) (xs: [m]t): [n]t = xs :> [n]t

-- | Split an array into a prefix of size `n` and a suffix of size `m`.
-- The sizes are taken from the type of the argument, so a size
-- coercion is usually needed, e.g. `split (xs :> [2 + 3]i32)`.
def split [n] [m] 't (xs: [n + m]t): ([n]t, [m]t) =
  (xs[:n] :> [n]t, xs[n:] :> [m]t)

-- | The elements in reverse order.
def reverse [n] 't (xs: [n]t): [n]t =
  -- An empty array is its own reverse, with its row shape, which a `map`
  -- over no indices cannot know.
  if n == 0 then xs else map (\i -> xs[n - 1 - i]) (iota_ n)

-- | Concatenate two arrays.  (An operator; do not use it as the
-- operator of a reduction, since the sizes would not line up.)
def (++) [n] [m] 't (xs: [n]t) (ys: [m]t): *[n + m]t = __intrinsic "concat"

-- | Concatenate two arrays; the same as `++`.
def concat [n] [m] 't (xs: [n]t) (ys: [m]t): *[n + m]t = xs ++ ys

-- | Concatenate two arrays into one of a given size `k`.  Fails at
-- run time with a size error unless `k` is the sum of their sizes.
def concat_to [n] [m] 't (k: i64) (xs: [n]t) (ys: [m]t): *[k]t = xs ++ ys :> [k]t

-- | Rotate to the left by `r` positions: element `i` of the result is
-- element `(i + r) mod n` of the input.  Negative `r` rotates to the
-- right.  Any `r` is allowed, also for an empty array.
def rotate [n] 't (r: i64) (xs: [n]t): [n]t =
  if n == 0 then xs
  else let r' = r % n
       in map (\i -> let j = i + r' in xs[if j >= n then j - n else j]) (iota_ n)

-- | The integers `0, 1, ..., n-1`.  Fails if `n` is negative.
def iota (n: i64): *[n]i64 = __intrinsic "iota"

-- | The valid indices of an array: `iota n` for an array of size `n`.
def indices [n] 't (_: [n]t): *[n]i64 = iota n

-- | An array of `n` copies of `x`.  Fails if `n` is negative.
def replicate 't (n: i64) (x: t): *[n]t = __intrinsic "replicate"

-- | An array of copies of `x`, as many as the context of the call
-- requires: `rep 0 : [3]i32` is `[0, 0, 0]`.
def rep [n] 't (x: t): *[n]t = replicate n x

-- | A fresh copy of any value; the result aliases nothing.
def copy 't (x: t): *t = __intrinsic "copy"

-- | A fresh copy of an array, laid out normally in memory.
def manifest [n] 't (xs: [n]t): *[n]t = copy xs

-- | Merge the two outer dimensions into one.
def flatten [n] [m] 't (xs: [n][m]t): [n * m]t = __intrinsic "flatten"

-- | Merge the three outer dimensions into one.
def flatten_3d [n] [m] [l] 't (xs: [n][m][l]t): [n * m * l]t =
  flatten (flatten xs)

-- | Merge the four outer dimensions into one.
def flatten_4d [n] [m] [l] [k] 't (xs: [n][m][l][k]t): [n * m * l * k]t =
  flatten (flatten_3d xs)

-- | Split the outer dimension in two.  The sizes come from the type of
-- the argument, e.g. `unflatten (xs :> [2 * 3]i32)`.
def unflatten [n] [m] 't (xs: [n * m]t): [n][m]t = unflatten_ n m xs

-- | Split the outer dimension in three.
def unflatten_3d [n] [m] [l] 't (xs: [n * m * l]t): [n][m][l]t =
  unflatten_ n m (unflatten_ (n * m) l xs)

-- | Split the outer dimension in four.
def unflatten_4d [n] [m] [l] [k] 't (xs: [n * m * l * k]t): [n][m][l][k]t =
  unflatten_ n m (unflatten_ (n * m) l (unflatten_ (n * m * l) k xs))

-- | Swap the two outer dimensions.
def transpose [n] [m] 't (xs: [n][m]t): [m][n]t = __intrinsic "transpose"

-- | True if every element is true (true for an empty array).
def and [n] (xs: [n]bool): bool = reduce (&&) true xs

-- | True if some element is true (false for an empty array).
def or [n] (xs: [n]bool): bool = reduce (||) false xs

-- | Sequential left fold: `foldl f z [a, b, c]` is `f (f (f z a) b) c`.
def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (xs: [n]b): a =
  loop s = acc for x in xs do f s x

-- | Sequential right fold: `foldr f z [a, b, c]` is `f a (f b (f c z))`.
def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (xs: [n]b): a =
  loop s = acc for i < n do f xs[n - 1 - i] s

-- | The array `[f 0, f 1, ..., f (n-1)]`.
def tabulate 'a (n: i64) (f: i64 -> a): *[n]a =
  map f (iota n)

-- | The `n` by `m` array whose element `(i, j)` is `f i j`.
def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a): *[n][m]a =
  map (\i -> map (f i) (iota m)) (iota n)

-- | The `n` by `m` by `l` array whose element `(i, j, k)` is `f i j k`.
def tabulate_3d 'a (n: i64) (m: i64) (l: i64) (f: i64 -> i64 -> i64 -> a): *[n][m][l]a =
  map (\i -> map (\j -> map (f i j) (iota l)) (iota m)) (iota n)
