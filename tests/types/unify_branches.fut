-- Both branches of an if must unify; literals adapt to the other branch.
-- ==
-- input { true } output { 1u64 }
-- input { false } output { 2u64 }

def main (b: bool) : u64 = if b then 1 else 2
