-- A size of an instantiation that nothing fixes is ambiguous even when it
-- reaches the definition's own (inferred) result type: `unflatten` needs
-- [a][b] with a * b = k, and no parameter of `split` mentions a or b, so no
-- application can fix them either. Futhark rejects this; `fut check` used to
-- accept it (the size was taken as part of the definition's type), and the
-- program then failed at run time with "unknown or consumed variable".
-- ==
-- error: T006

def split [m] (xs: [m]f64) (k: i64) = unflatten (xs :> [k]f64)

def main (xs: [6]f64) = split xs 6
