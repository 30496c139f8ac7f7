-- A loop with zero (or negative) iteration counts returns its initial value.
-- ==
-- input { 0 } output { 7 }
-- input { -3 } output { 7 }
-- input { 2 } output { 9 }

def main (n: i32) = loop x = 7 for _i < n do x + 1
