-- The size in the type of `#nothing` in one branch is fixed before the unknown
-- size of the array returned by `positives` (an existential size) exists, yet the
-- `if` would equate them. Futhark rejects this shape of program (its issue 1950)
-- with "Causality check"; today it is accepted.
-- ==
-- error: S003|[Cc]ausality

type maybe 'a = #nothing | #just a

def positives () : ?[m].[m]i64 =
  let (m, _) = (3i64, false)
  in replicate m 1i64

entry main (b: bool) : maybe ([]i64) =
  if b then #nothing else #just (positives ())
