-- Integer `%` is the modulus matching `/`: the result has the sign of the divisor.
-- ==
-- input { 7 2 } output { 1 }
-- input { -7 2 } output { 1 }
-- input { 7 -2 } output { -1 }
-- input { -7 -2 } output { -1 }
-- input { -6 3 } output { 0 }
-- input { -1 5 } output { 4 }

def main (a: i32) (b: i32) = a % b
