-- The parameter `g` of the lambda is bound before the argument `filter ...` is
-- computed, so the size of g's parameter type cannot be the (unknown) size of the
-- filter result. Futhark rejects this with "Causality check"; today it is accepted.
-- ==
-- error: S003|[Cc]ausality

def main (ys: []i64) = (\g -> g (filter (> 1) ys)) (\_ -> 7i64)
