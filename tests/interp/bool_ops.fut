-- Boolean operators and their truth tables.
-- ==
-- input { true true } output { true true false true }
-- input { true false } output { false true true false }
-- input { false true } output { false true true false }
-- input { false false } output { false false false true }

def main (a: bool) (b: bool) : (bool, bool, bool, bool) = (a && b, a || b, a != b, a == b)
