-- Integer `/` rounds towards negative infinity.
-- ==
-- input { 7 2 } output { 3 }
-- input { -7 2 } output { -4 }
-- input { 7 -2 } output { -4 }
-- input { -7 -2 } output { 3 }
-- input { 6 3 } output { 2 }
-- input { -6 3 } output { -2 }
-- input { 0 -5 } output { 0 }

def main (a: i32) (b: i32) = a / b
