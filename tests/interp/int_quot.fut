-- Integer `//` rounds towards zero.
-- ==
-- input { 7 2 } output { 3 }
-- input { -7 2 } output { -3 }
-- input { 7 -2 } output { -3 }
-- input { -7 -2 } output { 3 }
-- input { -1 5 } output { 0 }

def main (a: i32) (b: i32) = a // b
