-- An unknown size must not be resolved to a size that only comes into
-- existence later: the inner size of `none` is fixed when `none` is
-- bound, but `zip` would equate it with the size of the filter result,
-- which is computed afterwards. Futhark rejects this ("Causality check").
-- ==
-- error: S00[123]|[Cc]ausality

def main (zs: []i64) =
  let none = [] : [][]i64
  let some = [filter (> 0) zs]
  in zip none[0] some[0]
