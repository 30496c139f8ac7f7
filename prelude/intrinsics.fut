-- | The module `intrinsics`: constructs that Futhark's compiler exposes
-- under this name, for programs written against them.  Accumulators are
-- the arrays they update (`acc t` is `t`), and every construct here is
-- defined in the language itself, with sequential semantics.

import "soacs"
import "array"

module intrinsics = {
  -- | An accumulator over the array (or arrays) `t`.
  type~ acc 't = t

  -- | `acc_write acc i v` writes `v` at index `i` of the accumulator
  -- (combining it with the element there under `hist_stream`); an index
  -- out of bounds is ignored.
  def acc_write [n] 't (acc: *[n]t) (i: i64) (v: t): *[n]t =
    if i >= 0 && i < n then acc with [i] = v else acc

  -- | `scatter_stream dest f bs` threads an accumulator over `dest`
  -- through `f` for each element of `bs`, in order, and gives the array
  -- written.
  def scatter_stream [k] [n] 'a 'b (dest: *[k]a) (f: *[k]a -> b -> [k]a) (bs: [n]b): *[k]a =
    loop acc = dest for b in bs do copy (f acc b)

  -- | `hist_stream dest op ne f bs` is `scatter_stream` where a write
  -- combines the value written with the element there by `op` (whose
  -- neutral element is `ne`).  Each element of `bs` writes into a fresh
  -- array of `ne`, which is combined into the result afterwards, so two
  -- writes of one element to the same index keep only the later one.
  def hist_stream [k] [n] 'a 'b (dest: *[k]a) (op: a -> a -> a) (ne: a) (f: *[k]a -> b -> [k]a) (bs: [n]b): *[k]a =
    loop acc = dest for b in bs do map2 op acc (f (replicate k ne) b)

  -- | `flat_index_2d as offset n1 s1 n2 s2` is the `n1` by `n2` array
  -- whose element `(i, j)` is `as[offset + i*s1 + j*s2]`.
  def flat_index_2d [n] 't (as: [n]t) (offset: i64) (n1: i64) (s1: i64) (n2: i64) (s2: i64): [n1][n2]t =
    tabulate_2d n1 n2 (\i j -> as[offset + i * s1 + j * s2])

  -- | Like `flat_index_2d` with three dimensions.
  def flat_index_3d [n] 't (as: [n]t) (offset: i64) (n1: i64) (s1: i64) (n2: i64) (s2: i64) (n3: i64) (s3: i64): [n1][n2][n3]t =
    tabulate_3d n1 n2 n3 (\i j l -> as[offset + i * s1 + j * s2 + l * s3])

  -- | Like `flat_index_2d` with four dimensions.
  def flat_index_4d [n] 't (as: [n]t) (offset: i64) (n1: i64) (s1: i64) (n2: i64) (s2: i64) (n3: i64) (s3: i64) (n4: i64) (s4: i64): [n1][n2][n3][n4]t =
    tabulate_3d n1 n2 n3 (\i j l -> tabulate n4 (\h -> as[offset + i * s1 + j * s2 + l * s3 + h * s4]))

  -- | `flat_update_2d as offset s1 s2 vs` writes element `(i, j)` of `vs`
  -- to `as[offset + i*s1 + j*s2]`, in place.
  def flat_update_2d [n] [n1] [n2] 't (as: *[n]t) (offset: i64) (s1: i64) (s2: i64) (vs: [n1][n2]t): *[n]t =
    loop as for i < n1 do
      loop as for j < n2 do as with [offset + i * s1 + j * s2] = vs[i, j]

  -- | Like `flat_update_2d` with three dimensions.
  def flat_update_3d [n] [n1] [n2] [n3] 't (as: *[n]t) (offset: i64) (s1: i64) (s2: i64) (s3: i64) (vs: [n1][n2][n3]t): *[n]t =
    loop as for i < n1 do
      flat_update_2d as (offset + i * s1) s2 s3 vs[i]

  -- | Like `flat_update_2d` with four dimensions.
  def flat_update_4d [n] [n1] [n2] [n3] [n4] 't (as: *[n]t) (offset: i64) (s1: i64) (s2: i64) (s3: i64) (s4: i64) (vs: [n1][n2][n3][n4]t): *[n]t =
    loop as for i < n1 do
      flat_update_3d as (offset + i * s1) s2 s3 s4 vs[i]
}
