-- | The prelude: everything here is visible in every program.
--
-- Files, each brought in with `open import` so that its names are
-- re-exported:
--
-- * "soacs": map, reduce, scan, hist, scatter, filter, partition, ...
-- * "array": length, take, drop, iota, replicate, flatten, transpose, ...
-- * "zip": zip and unzip for two to five arrays.
-- * "math": the numeric module types and the modules i8 ... f64, bool.
-- * "functional": |>, <|, >->, <-<, flip, curry, uncurry, const, id, iterate.
-- * "ad": jvp, vjp and friends.
-- * "intrinsics": the module `intrinsics` (accumulators, strided views).
--
-- The set of natively implemented functions (`__intrinsic`) is listed
-- in INTRINSICS.md next to this file.

open import "zip"
open import "soacs"
open import "array"
open import "math"
open import "functional"
open import "ad"
open import "intrinsics"
