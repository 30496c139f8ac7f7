-- and, or on boolean arrays.
-- ==
-- input { [true, true] } output { true true }
-- input { [true, false] } output { false true }
-- input { [false, false] } output { false false }
-- input { empty([0]bool) } output { true false }

def main (xs: []bool): (bool, bool) = (and xs, or xs)
