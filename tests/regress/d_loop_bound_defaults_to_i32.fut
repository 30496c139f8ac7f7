-- The upper bound of a `for` loop may be of any integer type.  When
-- nothing else fixes it, the bound's type defaults to i32 like any other
-- unconstrained integer, so an entry point may take it as a parameter.
-- ==
-- input { 4 } output { 8 }
-- input { 0 } output { 0 }

def twice n = loop acc = 0i32 for _k < n do acc + 2

entry main n = twice n
