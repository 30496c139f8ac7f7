-- if-then-else is an expression; branches may nest.
-- ==
-- input { 5 } output { 1 }
-- input { -3 } output { -1 }
-- input { 0 } output { 0 }

def main (x: i32) = if x > 0 then 1 else if x < 0 then -1 else 0
