-- `a..<b` is the half-open range.
-- ==
-- input { 2 6 } output { [2, 3, 4, 5] }
-- input { 3 3 } output { empty([0]i32) }

def main (a: i32) (b: i32) : []i32 = a..<b
