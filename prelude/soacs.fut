-- | Second-order array combinators (SOACs) and their close relatives.
--
-- These are the parallel building blocks of the language.  Each one
-- has a sequential meaning (described below), but the compiler is free
-- to evaluate it in parallel.  Terminology used below: an operator
-- `op` is *associative* if `(x op y) op z == x op (y op z)`, and
-- *commutative* if `x op y == y op x`; `ne` is a *neutral element* of
-- `op` if `x op ne == ne op x == x`.  When a function is documented as
-- requiring these properties and the operator lacks them, the result
-- is unspecified (but no error is raised).

import "zip"

-- Structural helpers needed below; the public versions live in
-- "array".  They share intrinsics with their public counterparts.
local def iota_ (n: i64): *[n]i64 = __intrinsic "iota"
local def replicate_ 't (n: i64) (x: t): *[n]t = __intrinsic "replicate"
local def copy_ 't (x: t): *t = __intrinsic "copy"
local def flatten_ [n] [m] 't (xs: [n][m]t): [n * m]t = __intrinsic "flatten"
local def unflatten_ 't [p] (n: i64) (m: i64) (xs: [p]t): [n][m]t = __intrinsic "unflatten"

-- | Apply `f` to every element of `xs`.
--
-- **Work:** O(n).  **Span:** O(1).
def map 'a [n] 'x (f: a -> x) (xs: [n]a): *[n]x = __intrinsic "map"

-- | The same as `map`.
def map1 'a [n] 'x (f: a -> x) (xs: [n]a): *[n]x = map f xs

-- | Apply a two-argument function elementwise to two arrays.
def map2 'a 'b [n] 'x (f: a -> b -> x) (xs: [n]a) (ys: [n]b): *[n]x =
  map (\(x, y) -> f x y) (zip xs ys)

-- | Apply a three-argument function elementwise to three arrays.
def map3 'a 'b 'c [n] 'x (f: a -> b -> c -> x) (xs: [n]a) (ys: [n]b) (zs: [n]c): *[n]x =
  map (\(x, y, z) -> f x y z) (zip3 xs ys zs)

-- | Apply a four-argument function elementwise to four arrays.
def map4 'a 'b 'c 'd [n] 'x (f: a -> b -> c -> d -> x) (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d): *[n]x =
  map (\(x, y, z, w) -> f x y z w) (zip4 xs ys zs ws)

-- | Apply a five-argument function elementwise to five arrays.
def map5 'a 'b 'c 'd 'e [n] 'x (f: a -> b -> c -> d -> e -> x) (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d) (vs: [n]e): *[n]x =
  map (\(x, y, z, w, v) -> f x y z w v) (zip5 xs ys zs ws vs)

-- | Combine all elements of `xs` with the associative operator `op`,
-- whose neutral element is `ne`.  An empty array gives `ne`.
--
-- **Work:** O(n).  **Span:** O(log n).
def reduce [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a): a = __intrinsic "reduce"

-- | Like `reduce`, but `op` must also be commutative, which may allow
-- a faster implementation.
def reduce_comm [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a): a = __intrinsic "reduce_comm"

-- | Inclusive prefix scan: element `i` of the result is the reduction
-- of `xs[0..i]` with `op` (associative, neutral element `ne`).
--
-- **Work:** O(n).  **Span:** O(log n).
def scan [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a): *[n]a = __intrinsic "scan"

-- | Exclusive prefix scan: element `i` of the result is the reduction with
-- `op` of the elements before position `i`, so the first element is `ne`.
def exscan [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a): *[n]a =
  let s = scan op ne xs
  in map (\i -> if i == 0 then ne else s[i - 1]) (iota_ n)

-- | `reduce_by_index dest f ne is vs` updates `dest` in place: for
-- each `j`, if `is[j]` is a valid index of `dest`, then
-- `dest[is[j]]` becomes `f dest[is[j]] vs[j]`.  Indices out of bounds
-- are ignored.  `f` must be associative and commutative with neutral
-- element `ne`, since updates to the same bin may happen in any order.
--
-- **Work:** O(n).  **Span:** O(n) in the worst case, O(1) in the best.
def reduce_by_index 'a [k] [n] (dest: *[k]a) (f: a -> a -> a) (ne: a) (is: [n]i64) (vs: [n]a): *[k]a =
  __intrinsic "reduce_by_index"

-- | Like `reduce_by_index`, but for a two-dimensional destination
-- indexed by pairs.  Pairs outside the destination are ignored.
def reduce_by_index_2d 'a [k] [m] [n] (dest: *[k][m]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64)) (vs: [n]a): *[k][m]a =
  let flat_is = map (\(i, j) -> if i >= 0 && i < k && j >= 0 && j < m then i * m + j else -1) is
  let flat = reduce_by_index (flatten_ dest) f ne flat_is vs
  in unflatten_ k m flat

-- | Like `reduce_by_index`, but for a three-dimensional destination
-- indexed by triples.  Triples outside the destination are ignored.
def reduce_by_index_3d 'a [k] [m] [l] [n] (dest: *[k][m][l]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64, i64)) (vs: [n]a): *[k][m][l]a =
  let flat_is = map (\(i, j, h) ->
                       if i >= 0 && i < k && j >= 0 && j < m && h >= 0 && h < l
                       then (i * m + j) * l + h
                       else -1) is
  let flat = reduce_by_index (flatten_ (flatten_ dest)) f ne flat_is vs
  in unflatten_ k m (unflatten_ (k * m) l flat)

-- | `hist op ne k is vs` builds a histogram with `k` bins, all
-- starting at `ne`, and combines each `vs[j]` into bin `is[j]` with
-- `op`.  Out-of-range bins are ignored.  Same requirements on `op` as
-- `reduce_by_index`.
def hist 'a [n] (op: a -> a -> a) (ne: a) (k: i64) (is: [n]i64) (vs: [n]a): *[k]a =
  reduce_by_index (replicate_ k ne) op ne is vs

-- | `scatter dest is vs` writes each `vs[j]` to position `is[j]` of
-- `dest` (in place) and returns it.  Out-of-bounds indices are
-- ignored.  If an index occurs more than once, which of the values
-- ends up there is unspecified.
--
-- **Work:** O(n).  **Span:** O(1).
def scatter 't [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t): *[k]t = __intrinsic "scatter"

-- | `scatter` for a two-dimensional destination indexed by pairs.
-- Pairs outside the destination are ignored.
def scatter_2d 't [k] [m] [n] (dest: *[k][m]t) (is: [n](i64, i64)) (vs: [n]t): *[k][m]t =
  let flat_is = map (\(i, j) -> if i >= 0 && i < k && j >= 0 && j < m then i * m + j else -1) is
  in unflatten_ k m (scatter (flatten_ dest) flat_is vs)

-- | `scatter` for a three-dimensional destination indexed by triples.
-- Triples outside the destination are ignored.
def scatter_3d 't [k] [m] [l] [n] (dest: *[k][m][l]t) (is: [n](i64, i64, i64)) (vs: [n]t): *[k][m][l]t =
  let flat_is = map (\(i, j, h) ->
                       if i >= 0 && i < k && j >= 0 && j < m && h >= 0 && h < l
                       then (i * m + j) * l + h
                       else -1) is
  in unflatten_ k m (unflatten_ (k * m) l (scatter (flatten_ (flatten_ dest)) flat_is vs))

-- | `spread k x is vs` is an array of `k` copies of `x`, where each
-- position `is[j]` has been overwritten with `vs[j]` (out-of-bounds
-- indices ignored).  The same as `scatter (replicate k x) is vs`.
def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t): *[k]t =
  scatter (replicate_ k x) is vs

-- | The elements of `xs` that satisfy `p`, in their original order.
--
-- **Work:** O(n).  **Span:** O(log n).
def filter [n] 'a (p: a -> bool) (xs: [n]a): *[]a =
  let flags = map (\x -> if p x then 1i64 else 0i64) xs
  let offsets = scan (+) 0i64 flags
  let m = if n == 0 then 0i64 else offsets[n - 1]
  let is = map2 (\f o -> if f == 1 then o - 1 else -1) flags offsets
  in scatter (copy_ xs[:m]) is xs

-- | Split `xs` into the elements that satisfy `p` and those that do
-- not.  Both parts keep their original relative order.
--
-- **Work:** O(n).  **Span:** O(log n).
def partition [n] 'a (p: a -> bool) (xs: [n]a): ?[k].([k]a, [n - k]a) =
  let flags = map p xs
  let trues = scan (+) 0i64 (map (\b -> if b then 1i64 else 0i64) flags)
  let k = if n == 0 then 0i64 else trues[n - 1]
  let is = map3 (\b t i -> if b then t - 1 else k + i - t) flags trues (iota_ n)
  let ys = scatter (copy_ xs) is xs
  in (ys[:k], ys[k:] :> [n - k]a)

-- | Split `xs` into three parts: the elements satisfying `p1`, those
-- satisfying `p2` but not `p1`, and the rest.  Each part keeps the
-- original relative order.
def partition2 [n] 'a (p1: a -> bool) (p2: a -> bool) (xs: [n]a): ?[k][l].([k]a, [l]a, [n - k - l]a) =
  let cls = map (\x -> if p1 x then 0i64 else if p2 x then 1i64 else 2i64) xs
  let c0 = scan (+) 0i64 (map (\c -> if c == 0 then 1i64 else 0i64) cls)
  let c1 = scan (+) 0i64 (map (\c -> if c == 1 then 1i64 else 0i64) cls)
  let k0 = if n == 0 then 0i64 else c0[n - 1]
  let k1 = if n == 0 then 0i64 else c1[n - 1]
  let is = map4 (\c a b i -> if c == 0 then a - 1
                             else if c == 1 then k0 + b - 1
                             else k0 + k1 + (i - a - b))
                cls c0 c1 (iota_ n)
  let ys = scatter (copy_ xs) is xs
  in (ys[:k0], ys[k0:k0 + k1] :> [k1]a, ys[k0 + k1:] :> [n - k0 - k1]a)

local def len_ [k] 't (_: [k]t): i64 = k

-- | `flatmap f as` applies `f` to every element; `f` gives an array of
-- any length and a value.  The result describes the concatenation of
-- those arrays as an irregular array of `n` segments, in this order:
--
-- * the *shape*: the length of each segment (they sum to `m`);
-- * the *flags*: true at the first element of every non-empty segment;
-- * the *offsets*: where each segment starts in the data;
-- * the *data*: the concatenated arrays;
-- * the values `f` gave, one per element.
--
-- **Work:** O(n + m) applications of `f`.
def flatmap [n] 'a 'b 'c (f: a -> ?[k].([k]b, c)) (as: [n]a): ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let (shape, vals) = unzip (map (\x -> let (ys, c) = f x in (len_ ys, c)) as)
  let ends = scan (+) 0i64 shape
  let offsets = map2 (-) ends shape
  let m = if n == 0 then 0i64 else ends[n - 1]
  let starts = map2 (\o s -> if s > 0 then o else -1) offsets shape
  let flags = scatter (replicate_ m false) starts (replicate_ n true)
  let segs = scan (\x y -> if x > y then x else y) 0i64
                  (scatter (replicate_ m 0i64) starts (iota_ n))
  -- With no data at all, the empty data array is built from the (empty)
  -- arrays `f` gives, so that it has their element type and row shape.
  let data = if m == 0
             then flatten_ (map (\x -> let (ys, _) = f x in ys[:0] :> [0]b) as) :> [m]b
             else map2 (\j i -> let (ys, _) = f as[i] in ys[j - offsets[i]]) (iota_ m) segs
  in (shape, flags, offsets, data, vals)

-- | `flatmap` for a function that gives only an array: the shape, the
-- flags, the offsets and the data.
def flatmap' [n] 'a 'b (f: a -> ?[k].[k]b) (as: [n]a): ?[m].([n]i64, [m]bool, [n]i64, [m]b) =
  let (shape, flags, offsets, data, _) = flatmap (\x -> (f x, ())) as
  in (shape, flags, offsets, data)

-- | True if `f` holds for every element (true for an empty array).
def all [n] 'a (f: a -> bool) (xs: [n]a): bool =
  reduce (&&) true (map f xs)

-- | True if `f` holds for some element (false for an empty array).
def any [n] 'a (f: a -> bool) (xs: [n]a): bool =
  reduce (||) false (map f xs)
