-- `//` and `%%` (quotient and remainder rounding towards zero) are
-- defined in Futhark for integral types only: the prelude's `integral`
-- module type has them, `real` and the f64 module do not.  `2.5 // 0.75`
-- used to pass `fut check`, the interpreter then computed 2.5 / 0.75 and
-- the IR pipeline failed with "`quot` is not defined on f64".  The checker
-- now rejects it (T002: an argument not of an integral type).
-- ==
-- error: T002

def main (a: f64) (b: f64) : f64 = a // b
